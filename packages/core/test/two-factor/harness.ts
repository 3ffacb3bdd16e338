/**
 * What the two-factor tests share: an app with the memory adapter and the password provider (the
 * simplest first factor to drive), a browser that signs in, and the user's authenticator app,
 * which reads the secret from the setup page and computes codes as a phone would.
 */
import type { AuthConfig, AuthFactor, SignInCallbackParams, SignInEventMessage, TwoFactorOptions } from "@sesame/core"
import type { AdapterUser } from "@sesame/core/adapters"
import { MemoryAdapter } from "@sesame/core/adapters"
import Password from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { expect } from "vitest"
import { CookieJar, csrfToken, origin, secret, send } from "../helpers.js"
import { storePassword } from "../../src/password/storage.js"

export const password = "correct horse battery"
export const challengeUrl = `${origin}/auth/two-factor`
export const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

export interface Recorded {
  callbacks: SignInCallbackParams[]
  events: SignInEventMessage[]
  jwtFactors: (AuthFactor[] | undefined)[]
  changes: { change: string; method: string }[]
}

export function app(options: { twoFactor?: TwoFactorOptions; strategy?: "jwt" | "database"; overrides?: Partial<AuthConfig> } = {}) {
  const adapter = MemoryAdapter()
  const recorded: Recorded = { callbacks: [], events: [], jwtFactors: [], changes: [] }
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database" },
    providers: [Password({ sendEmail: () => {}, hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })],
    twoFactor: options.twoFactor ?? {},
    callbacks: {
      signIn: (params) => {
        recorded.callbacks.push(params)
        return true
      },
      jwt: ({ token, trigger, factors }) => {
        if (trigger === "signIn" || trigger === "signUp") recorded.jwtFactors.push(factors)
        return token
      },
      session: ({ session, factors }) => ({ ...session, factors }),
    },
    events: {
      signIn: (message) => void recorded.events.push(message),
      twoFactorChange: ({ change, method }) => void recorded.changes.push({ change, method }),
    },
    logger: quiet,
    ...options.overrides,
  }
  return { config, adapter, recorded }
}

export type App = ReturnType<typeof app>

/** A confirmed user with a password. */
export async function ada(a: App, email = "ada@example.com"): Promise<AdapterUser> {
  const user = await a.adapter.createUser({ id: crypto.randomUUID(), email, name: "Ada", emailVerified: new Date() })
  await storePassword(a.adapter, { userId: user.id, hash: await argon2id({ memoryCost: 64, timeCost: 1 }).hash(password), updatedAt: new Date() })
  return user
}

export async function post(config: AuthConfig, path: string, form: Record<string, string>, jar: CookieJar) {
  const response = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })
  return { response, location: response.headers.get("location") ?? "" }
}

/** The first factor: the password form. */
export function signInWithPassword(config: AuthConfig, jar: CookieJar, email = "ada@example.com", typed = password) {
  return post(config, "/auth/callback/password", { email, password: typed }, jar)
}

export const submitCode = (config: AuthConfig, jar: CookieJar, form: Record<string, string>) => post(config, "/auth/two-factor", form, jar)

export async function session(config: AuthConfig, jar: CookieJar): Promise<{ user?: { email?: string }; factors?: AuthFactor[] } | null> {
  return (await send(config, "/auth/session", { jar })).json()
}

export const hasSession = (jar: CookieJar) => jar.get("sesame.session-token") !== undefined

/** The authenticator app: the key it read, and the code it shows for a step (default: now). */
export class AuthenticatorApp {
  constructor(readonly key: Uint8Array) {}

  static fromSetupPage(html: string): AuthenticatorApp {
    const uri = /otpauth:\/\/totp\/[^"'\s<]+/.exec(html.replace(/&amp;/g, "&"))?.[0]
    expect(uri, "the setup page offers the otpauth URI").toBeDefined()
    const secretText = new URL(uri!).searchParams.get("secret")!
    return new AuthenticatorApp(decodeBase32IgnorePadding(secretText))
  }

  code(offsetSteps = 0, time = Date.now()): string {
    return generateHOTP(this.key, BigInt(Math.floor(time / 30_000) + offsetSteps), 6)
  }
}

/** The recovery codes a page shows. */
export function recoveryCodesOf(html: string): string[] {
  return [...html.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!)
}

/**
 * Signs `email` in with the password (no second factor yet), then turns an authenticator app on
 * from the setup page. Returns the signed-in browser, the app and the recovery codes.
 */
export async function enrol(a: App, email = "ada@example.com") {
  const jar = new CookieJar()
  const first = await signInWithPassword(a.config, jar, email)
  expect(first.location).toBe(`${origin}/`)
  const page = await send(a.config, "/auth/two-factor/setup", { jar })
  expect(page.status).toBe(200)
  const authenticator = AuthenticatorApp.fromSetupPage(await page.text())
  const confirmed = await post(a.config, "/auth/two-factor/setup", { code: authenticator.code() }, jar)
  expect(confirmed.response.status).toBe(200)
  const codes = recoveryCodesOf(await confirmed.response.text())
  expect(codes).toHaveLength(10)
  return { jar, authenticator, codes }
}

/** The first factor in a new browser: it must end at the challenge, with no session. */
export async function firstFactor(a: App, email = "ada@example.com") {
  const jar = new CookieJar()
  const { location } = await signInWithPassword(a.config, jar, email)
  expect(location).toBe(challengeUrl)
  expect(hasSession(jar)).toBe(false)
  return jar
}
