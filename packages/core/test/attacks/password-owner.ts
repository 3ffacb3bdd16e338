/**
 * An app with password accounts on the memory adapter, and its owner: for the tests of ending JWT
 * sessions (`attacks/jwt-revocation.test.ts`) and their attacker's review
 * (`attacks/review-acting-revocation.test.ts`). The owner signs up, confirms the address through
 * the emailed link, and signs in.
 */
import type { AuthConfig, PasswordEmailParams } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import { expect } from "vitest"
import { CookieJar, csrfToken, origin, secret, send } from "../helpers.js"

export const email = "owner@example.com"
export const password = "the owner's first passphrase"

export interface PasswordApp {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  /** The password provider's emails. */
  mails: PasswordEmailParams[]
  /** What the app logged as errors. */
  errors: Error[]
}

/** The app with `session` (cheap Argon2id parameters: the tests are on the flows), on `adapter`, with `extra` over it. */
export function passwordApp(session: AuthConfig["session"], adapter: MemoryAdapterInstance = MemoryAdapter(), extra: Partial<AuthConfig> = {}): PasswordApp {
  const mails: PasswordEmailParams[] = []
  const errors: Error[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Password({ sendEmail: (params) => void mails.push(params), hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })],
    session,
    logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...extra,
  }
  return { config, adapter, mails, errors }
}

/** Posts `form` to `path` with a CSRF token fetched into `jar` first. */
export async function post(config: AuthConfig, path: string, form: Record<string, string>, jar = new CookieJar()) {
  const response = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "", jar }
}

/** The address of the session's user, or null; the session endpoint answers 200 either way. */
export async function sessionEmail(config: AuthConfig, jar: CookieJar): Promise<string | null> {
  const response = await send(config, "/auth/session", { jar })
  expect(response.status).toBe(200)
  const body = (await response.json()) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

/** Signs the owner in with `typed` in a fresh browser, then `pass()` (a frozen clock moves on). */
export async function signIn(config: AuthConfig, typed: string, pass: () => void): Promise<CookieJar> {
  const { jar, location } = await post(config, "/auth/callback/password", { email, password: typed })
  expect(location).toBe(`${origin}/`)
  pass()
  return jar
}

/** Signs the owner up, confirms the address, then signs in a fresh browser (see {@link signIn}). */
export async function owner(app: PasswordApp, pass: () => void): Promise<CookieJar> {
  await post(app.config, "/auth/signup/password", { email, password })
  const link = new URL(app.mails.find((m) => m.kind === "verify-email")!.url)
  const confirmed = await post(app.config, "/auth/verify-email/password", { token: link.searchParams.get("token")!, email, password })
  expect(confirmed.response.status).toBe(302)
  return signIn(app.config, password, pass)
}
