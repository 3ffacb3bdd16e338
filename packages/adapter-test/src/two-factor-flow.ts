/**
 * Two-factor sign-in end to end, through `Auth()` from `@sesame/core`, with the adapter under test
 * keeping everything: users, passwords, database sessions, the second factor and its recovery
 * codes, and the counters that make each code single use.
 *
 * The storage-level tests check each method alone; this block checks that they fit together as
 * the core uses them: a TOTP step recorded by one sign-in is refused to the next (the counters
 * live in the store, not in the process), a recovery code is used up in the store, a session keeps
 * the factors of its sign-in, and turning the second factor off takes its codes along.
 *
 * No clock is frozen, as the store's own expiry (SQL `NOW()`, Redis TTLs) may be part of what is
 * tested: where a second code is needed, it is the next step's, which the core accepts (one step
 * of drift either way). Each test makes its own user with a unique address, as the stores are
 * shared across runs.
 *
 * @module
 */
import { Auth } from "@sesame/core"
import type { AuthConfig } from "@sesame/core"
import { builtInModels, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import { argon2id, importPasswordHash } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { describe, expect, it } from "vitest"
import type { AdapterTestDb } from "./index.js"
import { CookieJar } from "./browser.js"
import { method } from "./method.js"

const origin = "http://localhost:3000"
const home = `${origin}/`
const challengeUrl = `${origin}/auth/two-factor`
const sessionCookie = "sesame.session-token"
const password = "correct horse battery staple"
// Cheap on purpose: the hash is not what is tested, and the suite runs once per adapter.
const hasher = argon2id({ memoryCost: 64, timeCost: 1 })

/** The user's authenticator app: the key read from the setup page, and the code of a step. */
class AuthenticatorApp {
  constructor(readonly key: Uint8Array) {}

  static fromSetupPage(html: string): AuthenticatorApp {
    const uri = /otpauth:\/\/totp\/[^"'\s<]+/.exec(html.replaceAll("&amp;", "&"))?.[0]
    if (!uri) throw new Error("The setup page offers no otpauth:// URI.")
    const secret = new URL(uri).searchParams.get("secret")
    if (!secret) throw new Error(`The otpauth:// URI has no secret: ${uri}`)
    return new AuthenticatorApp(decodeBase32IgnorePadding(secret))
  }

  /** The code shown `offsetSteps` steps of 30 seconds from now. */
  code(offsetSteps = 0): string {
    return generateHOTP(this.key, BigInt(Math.floor(Date.now() / 30_000) + offsetSteps), 6)
  }
}

/** The recovery codes a page shows. */
function recoveryCodesOf(html: string): string[] {
  return [...html.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!)
}

/** The stored form of a session cookie's token (`packages/core/src/session/token.ts`): SHA-256, hex. */
async function sha256hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** An app with database sessions on `adapter` and password sign-in, and what it logged as errors. */
function appFor(adapter: Adapter) {
  const errors: string[] = []
  const config: AuthConfig = {
    secret: "adapter-test-secret-0123456789-abcdefghijklmnop",
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [Password({ sendEmail: () => {}, hasher })],
    // Said, not inferred: an adapter missing a method the flow needs fails the configuration
    // instead of quietly signing in with one factor.
    twoFactor: {},
    logger: { error: (error) => void errors.push(`${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
  }

  async function send(path: string, jar: CookieJar, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers()
    const cookie = jar.header()
    if (cookie) headers.set("cookie", cookie)
    const init: RequestInit = { method: "GET", headers }
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      init.method = "POST"
      init.body = new URLSearchParams(form).toString()
    }
    const response = await Auth(new Request(`${origin}${path}`, init), config)
    jar.apply(response)
    return response
  }

  /** Posts `form` with a CSRF token, as the built-in pages do; returns the response and where it redirects. */
  async function post(path: string, jar: CookieJar, form: Record<string, string>) {
    const { csrfToken } = (await (await send("/auth/csrf", jar)).json()) as { csrfToken: string }
    const response = await send(path, jar, { csrfToken, ...form })
    return { response, location: response.headers.get("location") ?? "" }
  }

  return { config, errors, send, post }
}

type App = ReturnType<typeof appFor>

/**
 * Registers the block for `adapter`, skipped when `skipped` (an adapter without second factors or
 * passwords cannot run it).
 */
export function twoFactorFlowTests(adapter: Adapter, db: AdapterTestDb, skipped: boolean): void {
  const a = <K extends keyof Adapter>(name: K) => method(adapter, name)

  /** A confirmed user with a password, made through the adapter. */
  async function confirmedUser(): Promise<AdapterUser> {
    const user = await a("createUser")({
      id: crypto.randomUUID(),
      name: "Ada Lovelace",
      email: `ada-${crypto.randomUUID().slice(0, 8)}@two-factor.example`,
      emailVerified: new Date(),
    })
    await importPasswordHash(adapter, user.id, await hasher.hash(password))
    return user
  }

  const signInWithPassword = (app: App, jar: CookieJar, user: AdapterUser) => app.post("/auth/callback/password", jar, { email: user.email!, password })

  /** Signs `user` in with the password alone and turns an authenticator app on from the setup page. */
  async function enrol(app: App, user: AdapterUser) {
    const jar = new CookieJar()
    expect((await signInWithPassword(app, jar, user)).location, "a password alone signs in before enrolment").toBe(home)
    const page = await app.send("/auth/two-factor/setup", jar)
    expect(page.status).toBe(200)
    const html = await page.text()
    const authenticator = AuthenticatorApp.fromSetupPage(html)
    const confirmed = await app.post("/auth/two-factor/setup", jar, { code: authenticator.code() })
    expect(confirmed.response.status, app.errors.join("\n")).toBe(200)
    const codes = recoveryCodesOf(await confirmed.response.text())
    expect(codes).toHaveLength(10)
    return { jar, html, authenticator, codes }
  }

  /** The first factor in a new browser: it ends at the challenge, with no session. */
  async function firstFactor(app: App, user: AdapterUser): Promise<CookieJar> {
    const jar = new CookieJar()
    const { location } = await signInWithPassword(app, jar, user)
    expect(location, app.errors.join("\n")).toBe(challengeUrl)
    expect(jar.get(sessionCookie)).toBeUndefined()
    return jar
  }

  /** The stored session of a browser's cookie, found as the core finds it: by the token's hash. */
  async function storedSession(jar: CookieJar) {
    const token = jar.get(sessionCookie)
    expect(token, "a session cookie").toBeDefined()
    return a("getSessionAndUser")(await sha256hex(token!))
  }

  describe.skipIf(skipped)("two-factor sign-in through Auth()", () => {
    it("turns an authenticator app on from the setup page: ten recovery codes, the secret stored encrypted", async () => {
      const app = appFor(adapter)
      const user = await confirmedUser()
      const { html } = await enrol(app, user)
      const stored = await adapter.store!.findOne(builtInModels.twoFactors, { userId: user.id })
      expect(stored).toMatchObject({ userId: user.id, method: "totp", devicesRevokedAt: null })
      // Sealed (a compact JWE), so neither the secret the page showed nor its raw form is stored.
      const shown = new URL(/otpauth:\/\/totp\/[^"'\s<]+/.exec(html.replaceAll("&amp;", "&"))![0]).searchParams.get("secret")!
      expect(String(stored!.secret).split(".")).toHaveLength(5)
      expect(stored!.secret).not.toContain(shown)
      expect(await adapter.store!.count(builtInModels.recoveryCodes, { userId: user.id })).toBe(10)
      if (db.twoFactor) expect(await db.twoFactor(user.id)).toEqual(stored)
      if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toHaveLength(10)
      expect(app.errors).toEqual([])
    })

    it("asks for the code after the password; the code signs in with both factors on the session, once across the store", async () => {
      const app = appFor(adapter)
      const user = await confirmedUser()
      const { authenticator } = await enrol(app, user)
      // The next step's code: one no other request has used, whenever in its step this runs.
      const code = authenticator.code(1)

      const jar = await firstFactor(app, user)
      expect((await app.post("/auth/two-factor", jar, { code })).location, app.errors.join("\n")).toBe(home)
      const found = await storedSession(jar)
      expect(found?.user.id).toBe(user.id)
      expect(found?.session.factors).toEqual(["password", "totp"])
      expect((await db.session(found!.session.sessionToken))?.factors).toEqual(["password", "totp"])

      // The same code in another pending sign-in: its step is recorded in the adapter's counters.
      const replay = await firstFactor(app, user)
      expect((await app.post("/auth/two-factor", replay, { code })).location).toBe(`${challengeUrl}?error=InvalidCode`)
      expect(replay.get(sessionCookie)).toBeUndefined()
      expect(app.errors).toEqual([])
    })

    it("a recovery code signs in once, and is used up in the store", async () => {
      const app = appFor(adapter)
      const user = await confirmedUser()
      const { codes } = await enrol(app, user)
      const recoveryCode = codes[3]!

      const jar = await firstFactor(app, user)
      expect((await app.post("/auth/two-factor", jar, { recoveryCode })).location, app.errors.join("\n")).toBe(home)
      expect((await storedSession(jar))?.session.factors).toEqual(["password", "recovery-code"])
      expect(await adapter.store!.count(builtInModels.recoveryCodes, { userId: user.id })).toBe(9)
      if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toHaveLength(9)

      const again = await firstFactor(app, user)
      expect((await app.post("/auth/two-factor", again, { recoveryCode })).location).toBe(`${challengeUrl}?method=recovery&error=InvalidCode`)
      expect(again.get(sessionCookie)).toBeUndefined()
      expect(await adapter.store!.count(builtInModels.recoveryCodes, { userId: user.id })).toBe(9)
      expect(app.errors).toEqual([])
    })

    it("turning it off with a fresh code removes the second factor and its recovery codes; the password alone signs in again", async () => {
      const app = appFor(adapter)
      const user = await confirmedUser()
      const { jar, authenticator } = await enrol(app, user)
      const off = await app.post("/auth/two-factor/disable", jar, { code: authenticator.code(1) })
      expect(off.location, app.errors.join("\n")).toBe(`${origin}/auth/two-factor/setup?notice=disabled`)
      expect(await adapter.store!.findOne(builtInModels.twoFactors, { userId: user.id })).toBeNull()
      expect(await adapter.store!.count(builtInModels.recoveryCodes, { userId: user.id })).toBe(0)
      if (db.twoFactor) expect(await db.twoFactor(user.id)).toBeNull()
      if (db.recoveryCodes) expect(await db.recoveryCodes(user.id)).toEqual([])
      const later = new CookieJar()
      expect((await signInWithPassword(app, later, user)).location).toBe(home)
      expect((await storedSession(later))?.session.factors).toEqual(["password"])
      expect(app.errors).toEqual([])
    })
  })
}
