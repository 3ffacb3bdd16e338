/**
 * The browser's answer to a ceremony, as posted to the callback: `data` is the JSON that
 * `@simplewebauthn/browser` returns (as a string in a form, or an object in a JSON body).
 *
 * Only the shape is checked here, so that a malformed post fails as a verification error before
 * any lookup; the contents are verified by `@simplewebauthn/server`.
 *
 * @module
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import { WebAuthnVerificationError } from "../errors.js"
import type { Ceremony } from "./challenge.js"

/** A response is a few kilobytes; anything much larger is not one. */
const maxLength = 64 * 1024
const base64url = /^[A-Za-z0-9_-]*$/

function fail(message: string): never {
  throw new WebAuthnVerificationError(`The passkey response is malformed: ${message}`)
}

function parse(data: unknown): Record<string, unknown> {
  let value = data
  if (typeof data === "string") {
    if (data.length > maxLength) fail("it is too large.")
    try {
      value = JSON.parse(data)
    } catch {
      fail("`data` is not JSON.")
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) fail("`data` must be an object.")
  return value as Record<string, unknown>
}

function field(object: Record<string, unknown>, name: string, optional = false): void {
  const value = object[name]
  // Some clients send an absent optional field as null.
  if (optional && (value === undefined || value === null)) return
  if (typeof value !== "string" || !base64url.test(value) || value.length > maxLength) fail(`\`${name}\` must be base64url.`)
}

/** The response of an `authenticate` ceremony; throws `WebAuthnVerificationError` for a malformed one. */
export function authenticationResponse(data: unknown): AuthenticationResponseJSON {
  const value = parse(data)
  checkCommon(value)
  const response = value.response as Record<string, unknown>
  for (const name of ["clientDataJSON", "authenticatorData", "signature"]) field(response, name)
  field(response, "userHandle", true)
  const { userHandle, ...rest } = response
  return {
    ...value,
    response: userHandle === null ? rest : response,
    clientExtensionResults: value.clientExtensionResults ?? {},
  } as unknown as AuthenticationResponseJSON
}

/** The response of a `register` ceremony; throws `WebAuthnVerificationError` for a malformed one. */
export function registrationResponse(data: unknown): RegistrationResponseJSON {
  const value = parse(data)
  checkCommon(value)
  const response = value.response as Record<string, unknown>
  for (const name of ["clientDataJSON", "attestationObject"]) field(response, name)
  if (response.transports !== undefined && !(Array.isArray(response.transports) && response.transports.every((t) => typeof t === "string"))) {
    fail("`response.transports` must be a list of strings.")
  }
  return { ...value, clientExtensionResults: value.clientExtensionResults ?? {} } as unknown as RegistrationResponseJSON
}

function checkCommon(value: Record<string, unknown>): void {
  field(value, "id")
  if (!value.id) fail("`id` is empty.")
  field(value, "rawId")
  if (value.type !== "public-key") fail('`type` must be "public-key".')
  if (!value.response || typeof value.response !== "object" || Array.isArray(value.response)) fail("`response` must be an object.")
  if (value.clientExtensionResults !== undefined && (typeof value.clientExtensionResults !== "object" || value.clientExtensionResults === null)) {
    fail("`clientExtensionResults` must be an object.")
  }
}

/** The ceremony a posted `action` names; throws `WebAuthnVerificationError` for anything else. */
export function postedCeremony(action: unknown): Ceremony {
  if (action === "authenticate" || action === "register") return action
  throw new WebAuthnVerificationError('The posted `action` must be "authenticate" or "register".')
}
