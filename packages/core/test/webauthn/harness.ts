/**
 * Server-level passkey ceremonies: `Auth()` with a passkey provider and a memory adapter, and a
 * software authenticator (`@sesame/testing`) answering the options the way a browser would.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import type { AuthenticationResponseJSON, CreationOptionsJSON, RegistrationResponseJSON, RequestOptionsJSON, SoftAuthenticator } from "@sesame/testing"
import { expect } from "vitest"
import { CookieJar, origin, secret, send } from "../helpers.js"
import { expectRejected, quietLogger, session } from "../oauth/harness.js"

export { expectRejected, quietLogger, session }

export const challengeCookie = "sesame.challenge"

export interface Setup {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  /** Errors the configuration logged. */
  errors: Error[]
}

/** A passkey provider with a memory adapter (database sessions unless `session` says otherwise). */
export function setup(overrides: Partial<AuthConfig> = {}): Setup {
  const adapter = MemoryAdapter()
  const { errors, logger } = quietLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
    logger,
    ...overrides,
  }
  return { config, adapter, errors }
}

export interface OptionsAnswer<O> {
  status: number
  action: "authenticate" | "register"
  options: O
  response: Response
}

/** `GET webauthn-options/:provider` with `query`. */
export async function askOptions<O = RequestOptionsJSON & CreationOptionsJSON>(
  config: AuthConfig,
  jar: CookieJar,
  query: Record<string, string> = {},
  provider = "passkey",
): Promise<OptionsAnswer<O>> {
  const search = new URLSearchParams(query).toString()
  const response = await send(config, `/auth/webauthn-options/${provider}${search ? `?${search}` : ""}`, { jar })
  const body = (await response.clone().json()) as { action: "authenticate" | "register"; options: O }
  return { status: response.status, action: body.action, options: body.options, response }
}

/** `POST callback/:provider` with `action` and `data`, as JSON (the client's way) or as a form (`data` a JSON string). */
export function postResponse(
  config: AuthConfig,
  jar: CookieJar,
  action: string,
  data: unknown,
  { form = false, provider = "passkey", callbackUrl }: { form?: boolean; provider?: string; callbackUrl?: string } = {},
): Promise<Response> {
  const extra: Record<string, string> = callbackUrl ? { callbackUrl } : {}
  return form
    ? send(config, `/auth/callback/${provider}`, { jar, form: { action, data: JSON.stringify(data), ...extra } })
    : send(config, `/auth/callback/${provider}`, { jar, json: { action, data, ...extra } })
}

/** Registers a passkey on `authenticator` (for `email`, or for the signed-in user when `email` is absent). */
export async function register(
  config: AuthConfig,
  jar: CookieJar,
  authenticator: SoftAuthenticator,
  email?: string,
): Promise<{ response: Response; data: RegistrationResponseJSON; options: CreationOptionsJSON }> {
  const asked = await askOptions<CreationOptionsJSON>(config, jar, email ? { action: "register", email } : { action: "register" })
  expect(asked.status).toBe(200)
  expect(asked.action).toBe("register")
  const data = authenticator.register(asked.options, { origin })
  return { response: await postResponse(config, jar, "register", data), data, options: asked.options }
}

/** Signs in with a passkey on `authenticator`; `query` goes to the options (e.g. an email). */
export async function authenticate(
  config: AuthConfig,
  jar: CookieJar,
  authenticator: SoftAuthenticator,
  query: Record<string, string> = { action: "authenticate" },
): Promise<{ response: Response; data: AuthenticationResponseJSON; options: RequestOptionsJSON }> {
  const asked = await askOptions<RequestOptionsJSON>(config, jar, query)
  expect(asked.status).toBe(200)
  expect(asked.action).toBe("authenticate")
  const data = authenticator.authenticate(asked.options, { origin })
  return { response: await postResponse(config, jar, "authenticate", data), data, options: asked.options }
}

/** Asserts a flow ended signed in, at `to`. */
export async function expectSignedIn(config: AuthConfig, jar: CookieJar, response: Response, email: string, to = `${origin}/`): Promise<void> {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(to)
  expect((await session(config, jar))?.user?.email).toBe(email)
}

/**
 * Asserts a passkey callback failed verification: back on the sign-in page with
 * `error=WebAuthnVerificationError`, no session, and the logged error saying `why`.
 */
export async function expectVerificationFailed(setup: Setup, jar: CookieJar, response: Response, why: RegExp): Promise<void> {
  await expectRejected(setup.config, jar, response, "WebAuthnVerificationError")
  const logged = setup.errors.at(-1)
  expect(logged?.name).toBe("WebAuthnVerificationError")
  const reasons = [logged?.message, (logged?.cause as { err?: Error } | undefined)?.err?.message].join(" | ")
  expect(reasons).toMatch(why)
}

/** Signs out through the sign-out endpoint. */
export async function signOut(config: AuthConfig, jar: CookieJar): Promise<void> {
  const { csrfToken } = (await (await send(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
  await send(config, "/auth/signout", { jar, form: { csrfToken } })
  expect(await session(config, jar)).toBeNull()
}
