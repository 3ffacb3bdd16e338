/**
 * Security review of two-factor sign-in, email codes and step-up, as an attacker drives them
 * through `Auth()`: the attacks a review found to work (each named for the attack, each now
 * refused), and defences the review was unsure of.
 */
import type { AuthConfig, PasswordEmailParams } from "@sesame/core"
import { requireRecentSignIn } from "@sesame/core"
import Password from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import { describe, expect, it } from "vitest"
import { recordingEmail } from "../email/helpers.js"
import { CookieJar, csrfToken, frozenClock, origin, secret, send } from "../helpers.js"
import { newTotpKey } from "../../src/two-factor/totp.js"
import { sealTotpKey } from "../../src/two-factor/secret.js"
import {
  ada,
  app,
  AuthenticatorApp,
  challengeUrl,
  enrol,
  firstFactor,
  hasSession,
  password,
  post,
  session,
  signInWithPassword,
  submitCode,
  type App,
} from "../two-factor/harness.js"
import { storeTwoFactor, storedTwoFactor } from "../../src/two-factor/storage.js"

const advance = frozenClock("2026-11-25T10:00:00Z")
const step = 30_000
const minute = 60_000

/** The app of `harness.ts` with an email provider that sends codes (`code`), recording what it sends. */
function withEmail(a: App, code: true | "only" = true, rateLimit?: false) {
  const { provider, sent } = recordingEmail({ code, ...(rateLimit === false ? { rateLimit: false } : {}) })
  a.config.providers = [...a.config.providers, provider]
  const lastCode = (to = "ada@example.com") => sent.filter((m) => m.identifier === to).at(-1)?.code
  return { sent, lastCode }
}

async function askForEmailCode(config: AuthConfig, jar: CookieJar, email = "ada@example.com") {
  return send(config, "/auth/signin/email", { jar, form: { csrfToken: await csrfToken(config, jar), email } })
}

const recent = (config: AuthConfig, jar: CookieJar) => requireRecentSignIn(new Request(`${origin}/settings`, { headers: { cookie: jar.header() } }), config)

describe("attacks found in review, now refused", () => {
  it("verify-email: confirming the address of an unconfirmed user with an authenticator app still asks for the app's code", async () => {
    // The user signed up while the app did not require confirmation, and turned on an app;
    // the app then required confirmation (the default). Password + the confirmation link must
    // not stand in for the authenticator.
    const a = app()
    const mails: PasswordEmailParams[] = []
    a.config.providers = [Password({ sendEmail: (m) => void mails.push(m), hasher: argon2id({ memoryCost: 64, timeCost: 1 }), requireEmailVerification: true })]
    const user = await ada(a)
    await a.adapter.updateUser({ id: user.id, emailVerified: null })
    await storeTwoFactor(a.adapter, { userId: user.id, method: "totp", secret: await sealTotpKey([secret], newTotpKey()), enabledAt: new Date(), devicesRevokedAt: null })
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const link = new URL(mails.filter((m) => m.kind === "verify-email").at(-1)!.url)
    const confirmed = await post(a.config, "/auth/verify-email/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password }, jar)
    expect(confirmed.location).toBe(challengeUrl)
    expect(hasSession(jar)).toBe(false)
  })

  it("step-up: a TOTP user's stale session does not become recent by typing only the password again", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    const jar = await firstFactor(a)
    advance(step)
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toBe(`${origin}/`)
    advance(11 * minute)
    expect((await recent(a.config, jar)).recent).toBe(false)
    // Whoever sits at the open session and knows the password signs in again: no challenge.
    const again = await signInWithPassword(a.config, jar)
    const renewed = (await recent(a.config, jar)).recent
    // Secure: the second factor is asked (or the sign-in time is not renewed without it).
    expect({ location: again.location, renewed }).toEqual({ location: challengeUrl, renewed: false })
  })

  it("step-up: an email-code user's second factor cannot be turned off with a stale session and the password alone", async () => {
    const a = app()
    const user = await ada(a)
    const { lastCode } = withEmail(a)
    const setup = new CookieJar()
    await signInWithPassword(a.config, setup)
    await post(a.config, "/auth/two-factor/setup", { method: "email" }, setup)
    expect(await storedTwoFactor(a.adapter, user.id)).toMatchObject({ method: "email" })
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    expect((await submitCode(a.config, jar, { code: lastCode()! })).location).toBe(`${origin}/`)
    expect(await session(a.config, jar)).toMatchObject({ factors: ["password", "email-code"] })
    advance(11 * minute)
    await signInWithPassword(a.config, jar)
    await post(a.config, "/auth/two-factor/disable", {}, jar)
    expect(await storedTwoFactor(a.adapter, user.id)).not.toBeNull()
  })

  it("email codes (first factor): someone who knows an address can hold its code sign-in for ten minutes at most, as they can spend its email rate limit", async () => {
    const a = app()
    await ada(a)
    const { lastCode } = withEmail(a, "only", false)
    // The attacker asks for codes for Ada's address in their own browser and types wrong ones.
    for (let binding = 0; binding < 2; binding++) {
      const attacker = new CookieJar()
      await askForEmailCode(a.config, attacker)
      for (let i = 0; i < 5; i++) {
        await post(a.config, "/auth/callback/email", { code: "000000" }, attacker)
        advance(20_000)
      }
    }
    // Ada's right code is held…
    const victim = new CookieJar()
    await askForEmailCode(a.config, victim)
    expect((await post(a.config, "/auth/callback/email", { code: lastCode()! }, victim)).location).toMatch(/error=TooManyAttempts/)
    // …for ten minutes; then a new code signs in.
    advance(10 * minute)
    const later = new CookieJar()
    await askForEmailCode(a.config, later)
    expect((await post(a.config, "/auth/callback/email", { code: lastCode()! }, later)).location).toBe(`${origin}/`)
  })

  it("TOTP: the code that confirmed the setup is recorded as used and not accepted again", async () => {
    const a = app()
    const user = await ada(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const authenticator = AuthenticatorApp.fromSetupPage(await (await send(a.config, "/auth/two-factor/setup", { jar })).text())
    const code = authenticator.code()
    await post(a.config, "/auth/two-factor/setup", { code }, jar)
    expect(await storedTwoFactor(a.adapter, user.id)).not.toBeNull()
    // The same code, seen over a shoulder, at the challenge of another browser with the password.
    const other = await firstFactor(a)
    expect((await submitCode(a.config, other, { code })).location).toMatch(/error=InvalidCode/)
  })

  it("email codes (second factor): a resend voids the previous code; one code is good at a time", async () => {
    const a = app()
    const user = await ada(a)
    const { lastCode } = withEmail(a)
    await storeTwoFactor(a.adapter, { userId: user.id, method: "email", secret: null, enabledAt: new Date(), devicesRevokedAt: null })
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const first = lastCode()!
    await post(a.config, "/auth/two-factor/email", {}, jar)
    expect(lastCode()).not.toBe(first)
    expect((await submitCode(a.config, jar, { code: first })).location).toMatch(/error=InvalidCode/)
  })

  it("email codes (second factor) after an email first factor: the mailbox alone does not give a two-factor session", async () => {
    const a = app()
    const user = await ada(a)
    const { lastCode } = withEmail(a, "only")
    await storeTwoFactor(a.adapter, { userId: user.id, method: "email", secret: null, enabledAt: new Date(), devicesRevokedAt: null })
    const jar = new CookieJar()
    await askForEmailCode(a.config, jar)
    await post(a.config, "/auth/callback/email", { code: lastCode()! }, jar)
    await submitCode(a.config, jar, { code: lastCode()! })
    // Secure: an email-code second factor is not offered (or not counted) after an email first factor.
    expect(await session(a.config, jar)).not.toMatchObject({ factors: ["email", "email-code"] })
  })

})

describe("defences that held", () => {
  it("JWT: an app's jwt callback that merges update data cannot set factors or auth_time", async () => {
    const a = app({ strategy: "jwt" })
    await ada(a)
    const config: AuthConfig = {
      ...a.config,
      callbacks: { ...a.config.callbacks, jwt: ({ token, trigger, session: data }) => (trigger === "update" ? { ...token, ...(data as object) } : token) },
    }
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    advance(11 * minute)
    const future = Math.floor(Date.now() / 1000) + 3600
    const updated = await send(config, "/auth/session", { jar, json: { csrfToken: await csrfToken(config, jar), data: { name: "Mallory", factors: ["password", "totp"], auth_time: future } } })
    // The update went through the callback (the name changed)...
    expect(await updated.json()).toMatchObject({ user: { name: "Mallory" }, factors: ["password"] })
    // ...but Sesame's own claims did not.
    expect(await session(config, jar)).toMatchObject({ user: { name: "Mallory" }, factors: ["password"] })
    expect((await recent(config, jar)).recent).toBe(false)
  })

  it("open redirects: reauthenticate and requireRecentSignIn's returnTo never lead off the origin", async () => {
    const a = app()
    await ada(a)
    const { jar, authenticator } = await enrol(a)
    advance(11 * minute)
    const check = await requireRecentSignIn(new Request(`${origin}/x`, { headers: { cookie: jar.header() } }), a.config, { returnTo: "//evil.example/steal" })
    expect(check.recent).toBe(false)
    const page = await send(a.config, check.recent ? "" : check.redirect, { jar })
    expect(await page.text()).not.toContain("evil.example")
    advance(step)
    const done = await post(a.config, "/auth/reauthenticate", { code: authenticator.code(), callbackUrl: "https://evil.example/" }, jar)
    expect(done.location).toBe(`${origin}/`)
  })

  it("parallel guesses on one pending sign-in: at most five codes are ever checked, then it is locked", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    const jar = await firstFactor(a)
    const token = await csrfToken(a.config, jar)
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(a.config, "/auth/two-factor", { cookie: jar.header(), form: { csrfToken: token, code: String(100000 + i) } })),
    )
    const checked = answers.filter((r) => /error=(InvalidCode|TwoFactorLocked)/.test(r.headers.get("location") ?? "")).length
    expect(checked).toBeGreaterThanOrEqual(1)
    expect(checked).toBeLessThanOrEqual(5)
    // The pending sign-in is used up: even the right code, on a copy of its cookie, signs nothing in.
    advance(step)
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toMatch(/error=TwoFactorExpired/)
    expect(hasSession(jar)).toBe(false)
  })

  it("cookies over HTTPS: the pending sign-in and remembered device are __Secure-, HttpOnly, Secure, SameSite=Lax", async () => {
    const a = app({ twoFactor: { rememberDevice: 3600 } })
    await ada(a)
    const { authenticator } = await enrol(a)
    const https = "https://app.example"
    const jar = new CookieJar()
    const token = await (await send(a.config, `${https}/auth/csrf`, { jar })).json()
    const first = await send(a.config, `${https}/auth/callback/password`, { jar, form: { csrfToken: token.csrfToken, email: "ada@example.com", password } })
    const pending = first.headers.getSetCookie().find((c) => c.startsWith("__Secure-sesame.pending-sign-in"))
    expect(pending).toMatch(/HttpOnly/i)
    expect(pending).toMatch(/Secure/)
    expect(pending).toMatch(/SameSite=Lax/i)
    expect(pending).toMatch(/Max-Age=300/)
    advance(step)
    const done = await send(a.config, `${https}/auth/two-factor`, { jar, form: { csrfToken: token.csrfToken, code: authenticator.code(), remember: "1" } })
    const remembered = done.headers.getSetCookie().find((c) => c.startsWith("__Secure-sesame.remembered-device"))
    expect(remembered).toMatch(/HttpOnly/i)
    expect(remembered).toMatch(/Secure/)
    expect(remembered).toMatch(/SameSite=Lax/i)
    expect(remembered).toMatch(/Max-Age=3600/)
  })

  it("the pending cookie names no one to the browser and a pending sign-in is not a session for other endpoints", async () => {
    const a = app()
    await ada(a)
    await enrol(a)
    const jar = await firstFactor(a)
    const raw = jar.get("sesame.pending-sign-in")!
    expect(raw.split(".")).toHaveLength(5) // a JWE: nothing readable
    // Each part decoded: the address is in none (the raw text may hold "ada" by chance, in base64url).
    for (const part of raw.split(".")) expect(Buffer.from(part, "base64url").toString("latin1")).not.toContain("ada@example.com")
    expect((await send(a.config, "/auth/two-factor/setup", { jar })).headers.get("location")).toMatch(/\/auth\/signin\?/)
    expect((await recent(a.config, jar)).recent).toBe(false)
    expect(await session(a.config, jar)).toBeNull()
  })
})
