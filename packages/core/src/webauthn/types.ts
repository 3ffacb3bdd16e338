/**
 * Types of the `webauthn` provider kind (passkeys).
 *
 * @module
 */
import type { CredentialInput } from "../credentials/types.js"
import type { CommonProviderOptions } from "../types.js"

/** The relying party: who the credentials are for. Default: from the request URL. */
export interface RelyingParty {
  /** A registrable domain, e.g. `example.com`. */
  id: string
  name: string
  /** The expected origin(s) of responses. */
  origin: string | string[]
}

/** A provider that signs users in with passkeys. Needs `experimental.enableWebAuthn`. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** Overrides parts of the relying party derived from the request. */
  relayingParty?: Partial<RelyingParty>
  /** Offer passkeys in the browser's autofill of the email field. Default true. */
  enableConditionalUI?: boolean
  /** Fields of the registration form. Default: an email field with `autocomplete="username webauthn"`. */
  formFields?: Record<string, CredentialInput>
  /** Require user verification (PIN, biometrics). */
  userVerification?: "required" | "preferred" | "discouraged"
  /** Require a discoverable (resident) credential. */
  residentKey?: "required" | "preferred" | "discouraged"
  /** Milliseconds the browser waits for the user. Default 5 minutes. */
  timeout?: number
}
