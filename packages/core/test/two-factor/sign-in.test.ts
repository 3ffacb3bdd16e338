/**
 * Two-factor sign-in through `Auth()`: enrolment, the challenge after the first factor, codes
 * used once, clock drift, throttling, recovery codes, the pending sign-in cookie under attack, the
 * second factor skipped by calling endpoints directly, remembered devices, turning it off, and the
 * callbacks and events of a sign-in in two steps.
 */
import { Auth } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import { describe, expect, it } from "vitest"
import { CookieJar, frozenClock, origin, send } from "../helpers.js"
import {
  ada,
  app,
  challengeUrl,
  enrol,
  firstFactor,
  hasSession,
  post,
  recoveryCodesOf,
  session,
  signInWithPassword,
  submitCode,
  AuthenticatorApp,
} from "./harness.js"
import { storePassword, storedPassword } from "../../src/password/storage.js"
import { countRecoveryCodes, recoveryCodeModel, storedTwoFactor } from "../../src/two-factor/storage.js"

const advance = frozenClock("2026-11-25T10:00:00Z")
const step = 30_000
const signInPage = (error: string) => `${origin}/auth/signin?error=${error}&callbackUrl=${encodeURIComponent(`${origin}/`)}`

describe("enrolment", () => {
  it("shows a secret as a QR code and text, counts nothing before a first code confirms it, then stores it encrypted with ten hashed recovery codes shown once", async () => {
    const a = app()
    const user = await ada(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const page = await send(a.config, "/auth/two-factor/setup", { jar })
    const html = await page.text()
    expect(html).toContain("<svg")
    expect(html).toMatch(/autocomplete="one-time-code"/)
    const authenticator = AuthenticatorApp.fromSetupPage(html)
    // Reloading the page keeps the same secret (it lives in the setup cookie until confirmed).
    expect(AuthenticatorApp.fromSetupPage(await (await send(a.config, "/auth/two-factor/setup", { jar })).text()).key).toEqual(authenticator.key)
    expect(await storedTwoFactor(a.adapter, user.id)).toBeNull()

    const wrong = await post(a.config, "/auth/two-factor/setup", { code: authenticator.code(5) }, jar)
    expect(wrong.location).toBe(`${origin}/auth/two-factor/setup?error=InvalidCode`)
    expect(await storedTwoFactor(a.adapter, user.id)).toBeNull()

    const confirmed = await post(a.config, "/auth/two-factor/setup", { code: authenticator.code() }, jar)
    expect(confirmed.response.headers.get("cache-control")).toContain("no-store")
    const codes = recoveryCodesOf(await confirmed.response.text())
    expect(codes).toHaveLength(10)
    const stored = (await storedTwoFactor(a.adapter, user.id))!
    expect(stored).toMatchObject({ userId: user.id, method: "totp", devicesRevokedAt: null })
    // Encrypted: neither the base32 text nor the raw key appears in what is stored.
    const base32 = new URL(/otpauth:\/\/totp\/[^"'\s<]+/.exec(html.replace(/&amp;/g, "&"))![0]).searchParams.get("secret")!
    expect(stored.secret).not.toContain(base32)
    expect(stored.secret!.split(".")).toHaveLength(5)
    const hashes = (await a.adapter.store.findMany(recoveryCodeModel, { where: { userId: user.id } })).map(({ hash }) => hash)
    expect(hashes).toHaveLength(10)
    for (const code of codes) expect(hashes.join()).not.toContain(code.replace("-", ""))
    expect(a.recorded.changes).toEqual([{ change: "enabled", method: "totp" }])
    // The page that shows the codes is the answer to the POST: nothing in a URL, and no second time.
    expect(recoveryCodesOf(await (await send(a.config, "/auth/two-factor/setup", { jar })).text())).toEqual([])
  })

  it("needs a signed-in user and a recent sign-in; an old session is sent to prove who it is first", async () => {
    const a = app()
    await ada(a)
    const stranger = await send(a.config, "/auth/two-factor/setup")
    expect(stranger.status).toBe(302)
    expect(stranger.headers.get("location")).toMatch(/\/auth\/signin\?callbackUrl=/)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    advance(11 * 60_000)
    const stale = await send(a.config, "/auth/two-factor/setup", { jar })
    expect(stale.headers.get("location")).toBe(`${origin}/auth/reauthenticate?callbackUrl=${encodeURIComponent(`${origin}/auth/two-factor/setup`)}`)
    // Without an authenticator app, re-authentication is signing in again.
    const reauth = await send(a.config, stale.headers.get("location")!, { jar })
    expect(reauth.headers.get("location")).toMatch(new RegExp(`^${origin}/auth/signin\\?callbackUrl=`))
    const posted = await post(a.config, "/auth/two-factor/setup", { code: "123456" }, jar)
    expect(posted.location).toMatch(/\/auth\/reauthenticate\?/)
  })

  it("a setup cookie made for one user does not enrol another", async () => {
    const a = app()
    await ada(a)
    const bob = await ada(a, "bob@example.com")
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const authenticator = AuthenticatorApp.fromSetupPage(await (await send(a.config, "/auth/two-factor/setup", { jar })).text())
    // Bob signs in in the same browser, keeping Ada's setup cookie, and posts her code.
    await signInWithPassword(a.config, jar, "bob@example.com")
    const posted = await post(a.config, "/auth/two-factor/setup", { code: authenticator.code() }, jar)
    expect(posted.location).toBe(`${origin}/auth/two-factor/setup?error=SetupExpired`)
    expect(await storedTwoFactor(a.adapter, bob.id)).toBeNull()
    // The page says what happened and shows a new secret, rather than "Something went wrong".
    const again = await (await send(a.config, "/auth/two-factor/setup?error=SetupExpired", { jar })).text()
    expect(again).toContain("The setup took too long. Scan the new QR code, then enter a code from your app.")
    expect(again).not.toContain("Something went wrong")
  })
})

describe("sign-in with an authenticator app", () => {
  it("the first factor leads to the challenge with no session; the code completes it, with the signIn callback and event once, after the second factor, and the factors in the callbacks", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    a.recorded.callbacks.length = 0
    a.recorded.events.length = 0
    advance(step)
    const jar = await firstFactor(a)
    expect(await session(a.config, jar)).toBeNull()
    expect(a.recorded.callbacks).toHaveLength(0)
    expect(a.recorded.events).toHaveLength(0)
    const challenge = await send(a.config, "/auth/two-factor", { jar })
    expect(challenge.status).toBe(200)
    expect(await challenge.text()).toMatch(/autocomplete="one-time-code"/)

    const done = await submitCode(a.config, jar, { code: authenticator.code() })
    expect(done.location).toBe(`${origin}/`)
    expect(hasSession(jar)).toBe(true)
    expect(jar.get("sesame.pending-sign-in")).toBeUndefined()
    expect(await session(a.config, jar)).toMatchObject({ user: { email: "ada@example.com" }, factors: ["password", "totp"] })
    expect(a.recorded.callbacks).toHaveLength(1)
    expect(a.recorded.events).toHaveLength(1)
    expect(a.recorded.events[0]).toMatchObject({ user: { email: "ada@example.com" }, account: { provider: "password" } })
  })

  it("JWT sessions carry the factors in the token and the jwt callback sees them", async () => {
    const a = app({ strategy: "jwt" })
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    await submitCode(a.config, jar, { code: authenticator.code() })
    expect(await session(a.config, jar)).toMatchObject({ factors: ["password", "totp"] })
    expect(a.recorded.jwtFactors.at(-1)).toEqual(["password", "totp"])
  })

  it("accepts one step of drift either way, refuses two", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    for (const [offset, accepted] of [
      [-2, false],
      [2, false],
      [-1, true],
      [1, true],
    ] as const) {
      advance(10 * step)
      const jar = await firstFactor(a)
      const { location } = await submitCode(a.config, jar, { code: authenticator.code(offset) })
      expect(location, `offset ${offset}`).toBe(accepted ? `${origin}/` : `${challengeUrl}?error=InvalidCode`)
      expect(hasSession(jar)).toBe(accepted)
    }
  })

  it("accepts a code once: the same code in a second sign-in, or an older code after a newer one, is refused", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const code = authenticator.code()
    const first = await firstFactor(a)
    expect((await submitCode(a.config, first, { code })).location).toBe(`${origin}/`)
    const replay = await firstFactor(a)
    expect((await submitCode(a.config, replay, { code })).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect(hasSession(replay)).toBe(false)
    // Two steps on, the next step's code works; then the current step's, never used but older, does not.
    advance(2 * step)
    const next = await firstFactor(a)
    expect((await submitCode(a.config, next, { code: authenticator.code(1) })).location).toBe(`${origin}/`)
    const older = await firstFactor(a)
    expect((await submitCode(a.config, older, { code: authenticator.code() })).location).toBe(`${challengeUrl}?error=InvalidCode`)
  })

  it("one pending sign-in completed twice at once (an app code and a recovery code racing): one session, not two", async () => {
    const a = app()
    await ada(a)
    const { authenticator, codes } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    const copy = new CookieJar()
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
    const results = await Promise.all([submitCode(a.config, jar, { code: authenticator.code() }), submitCode(a.config, copy, { recoveryCode: codes[0]! })])
    expect(results.filter((r) => r.location === `${origin}/`)).toHaveLength(1)
    expect([jar, copy].filter(hasSession)).toHaveLength(1)
  })

  it("two requests racing with one code: exactly one signs in", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const jars = [await firstFactor(a), await firstFactor(a)]
    const code = authenticator.code()
    const results = await Promise.all(jars.map((jar) => submitCode(a.config, jar, { code })))
    expect(results.filter((r) => r.location === `${origin}/`)).toHaveLength(1)
  })

  it("a pending sign-in takes five wrong codes, then the first factor must be given again, and a copy of its cookie is used up too", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    const copy = new CookieJar()
    copy.cookies.set("sesame.pending-sign-in", jar.cookies.get("sesame.pending-sign-in")!)
    for (let i = 0; i < 4; i++) expect((await submitCode(a.config, jar, { code: "000000" })).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect((await submitCode(a.config, jar, { code: "000000" })).location).toBe(signInPage("TwoFactorLocked"))
    expect(jar.get("sesame.pending-sign-in")).toBeUndefined()
    expect((await submitCode(a.config, copy, { code: authenticator.code() })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(copy)).toBe(false)
  })

  it("wrong codes are throttled per user across pending sign-ins: a guesser is held off even with the right code, and Ada gets in after the wait", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    // Five free tries (in several pending sign-ins), then a wait that doubles.
    for (let i = 0; i < 5; i++) {
      const jar = await firstFactor(a)
      await submitCode(a.config, jar, { code: "000000" })
    }
    const jar = await firstFactor(a)
    const held = await submitCode(a.config, jar, { code: authenticator.code() })
    expect(held.location).toMatch(new RegExp(`^${challengeUrl}\\?error=TooManyAttempts&retryAfter=\\d+$`))
    expect(hasSession(jar)).toBe(false)
    advance(2 * step)
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toBe(`${origin}/`)
  })

  it("a recovery code signs in once; the same code again is refused; each is forgiving about case and dashes", async () => {
    const a = app()
    const user = await ada(a)
    const { codes } = await enrol(a)
    const jar = await firstFactor(a)
    const recovery = await send(a.config, "/auth/two-factor?method=recovery", { jar })
    expect(await recovery.text()).toMatch(/name="recoveryCode"/)
    expect((await submitCode(a.config, jar, { recoveryCode: ` ${codes[0]!.toUpperCase().replace("-", " ")} ` })).location).toBe(`${origin}/`)
    expect(await session(a.config, jar)).toMatchObject({ factors: ["password", "recovery-code"] })
    expect(await countRecoveryCodes(a.adapter, user.id)).toBe(9)
    const again = await firstFactor(a)
    expect((await submitCode(a.config, again, { recoveryCode: codes[0]! })).location).toBe(`${challengeUrl}?method=recovery&error=InvalidCode`)
    expect(hasSession(again)).toBe(false)
  })
})

describe("the pending sign-in under attack", () => {
  it("nothing signs in without the second factor: the session endpoint, the first factor again, an empty or missing code", async () => {
    const a = app()
    await ada(a)
    await enrol(a)
    const jar = await firstFactor(a)
    expect(await session(a.config, jar)).toBeNull()
    // The first factor again only makes another pending sign-in.
    expect((await signInWithPassword(a.config, jar)).location).toBe(challengeUrl)
    expect((await submitCode(a.config, jar, {})).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect((await submitCode(a.config, jar, { code: "" })).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect(hasSession(jar)).toBe(false)
    // Without a pending sign-in, the challenge is the sign-in page.
    expect((await submitCode(a.config, new CookieJar(), { code: "123456" })).location).toBe(signInPage("TwoFactorExpired"))
    const page = await send(a.config, "/auth/two-factor")
    expect(page.headers.get("location")).toBe(signInPage("TwoFactorExpired"))
  })

  it("a tampered, foreign or expired pending cookie is refused", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    const value = jar.cookies.get("sesame.pending-sign-in")!
    const tampered = new CookieJar()
    tampered.cookies.set("sesame.pending-sign-in", `${value.slice(0, -4)}AAAA`)
    expect((await submitCode(a.config, tampered, { code: authenticator.code() })).location).toBe(signInPage("TwoFactorExpired"))
    // The session cookie's value under the pending cookie's name: another salt, it does not open.
    const other = await firstFactor(a)
    await submitCode(a.config, other, { code: authenticator.code() })
    const foreign = new CookieJar()
    foreign.cookies.set("sesame.pending-sign-in", (await sealedSessionLikeValue(a))!)
    expect((await submitCode(a.config, foreign, { code: authenticator.code(1) })).location).toBe(signInPage("TwoFactorExpired"))
    // The cookie's own lifetime is 5 minutes; the sealed value expires then too, whatever the browser keeps.
    advance(6 * 60_000)
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(jar)).toBe(false)
  })

  it("a copy of the pending cookie taken before the sign-in completed is refused after it", async () => {
    const a = app()
    await ada(a)
    const { authenticator, codes } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    const stolen = new CookieJar()
    stolen.cookies.set("sesame.pending-sign-in", jar.cookies.get("sesame.pending-sign-in")!)
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toBe(`${origin}/`)
    expect((await submitCode(a.config, stolen, { recoveryCode: codes[1]! })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(stolen)).toBe(false)
  })

  it("a password changed while the sign-in waited stops it", async () => {
    const a = app()
    const user = await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const jar = await firstFactor(a)
    advance(1000)
    await storePassword(a.adapter, { ...(await storedPassword(a.adapter, user.id))!, updatedAt: new Date() })
    expect((await submitCode(a.config, jar, { code: authenticator.code() })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(jar)).toBe(false)
  })
})

/** A value sealed by Sesame for another cookie (the session token of a JWT app with the same secret). */
async function sealedSessionLikeValue(a: ReturnType<typeof app>): Promise<string | undefined> {
  const jwtApp = { ...a.config, session: { strategy: "jwt" as const }, twoFactor: false as const }
  const jar = new CookieJar()
  await signInWithPassword(jwtApp, jar)
  return jar.cookies.get("sesame.session-token")
}

describe("which sign-ins ask", () => {
  it("a provider with secondFactor: false, or whose function says no, does not ask; one that says yes does", async () => {
    for (const [secondFactor, asks] of [
      [false, false],
      [() => false, false],
      [() => true, true],
      [undefined, true],
    ] as const) {
      const a = app()
      const user = await ada(a)
      await enrol(a)
      const config = {
        ...a.config,
        providers: [
          ...a.config.providers,
          Credentials({
            credentials: { email: {}, secret: { type: "password" } },
            authorize: async (fields) => (fields.secret === "open sesame" ? { id: user.id, email: user.email } : null),
            ...(secondFactor === undefined ? {} : { secondFactor }),
          }),
        ],
      }
      const jar = new CookieJar()
      const { location } = await post(config, "/auth/callback/credentials", { email: user.email, secret: "open sesame" }, jar)
      expect(location, String(secondFactor)).toBe(asks ? challengeUrl : `${origin}/`)
    }
  })

  it("the signIn callback of a credentials sign-in that waits for its second factor never sees the password", async () => {
    const a = app()
    const user = await ada(a)
    const { authenticator } = await enrol(a)
    const config = {
      ...a.config,
      providers: [
        Credentials({
          credentials: { email: {}, secret: { type: "password" } },
          authorize: async (fields) => (fields.secret === "open sesame" ? { id: user.id, email: user.email } : null),
        }),
      ],
    }
    advance(step)
    const jar = new CookieJar()
    await post(config, "/auth/callback/credentials", { email: user.email, secret: "open sesame" }, jar)
    a.recorded.callbacks.length = 0
    expect((await submitCode(config, jar, { code: authenticator.code() })).location).toBe(`${origin}/`)
    expect(a.recorded.callbacks).toHaveLength(1)
    expect(a.recorded.callbacks[0]!.credentials).toEqual({ email: user.email })
  })

  it("a user without a second factor signs in at once, and an app with twoFactor: false never asks", async () => {
    const a = app()
    await ada(a)
    const jar = new CookieJar()
    expect((await signInWithPassword(a.config, jar)).location).toBe(`${origin}/`)
    await enrol(a)
    const off = { ...a.config, twoFactor: false as const }
    const other = new CookieJar()
    expect((await signInWithPassword(off, other)).location).toBe(`${origin}/`)
    expect((await send(off, "/auth/two-factor/setup", { jar: other })).status).toBe(404)
  })

  it("a refusing signIn callback is asked once, after the second factor, and nothing is signed in", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    let asked = 0
    const config = { ...a.config, callbacks: { ...a.config.callbacks, signIn: () => (asked++, false) } }
    advance(step)
    const jar = new CookieJar()
    expect((await signInWithPassword(config, jar)).location).toBe(challengeUrl)
    expect(asked).toBe(0)
    const { location } = await submitCode(config, jar, { code: authenticator.code() })
    expect(location).toMatch(/error=AccessDenied/)
    expect(asked).toBe(1)
    expect(hasSession(jar)).toBe(false)
  })
})

describe("remembering a device", () => {
  /** Ada enrolled (her settings' browser signed in), remembering devices for 30 days, and a browser past her password. */
  async function atTheChallenge() {
    const a = app({ twoFactor: { rememberDevice: 30 * 24 * 60 * 60 } })
    await ada(a)
    const { authenticator, jar: settings } = await enrol(a)
    advance(step)
    return { a, authenticator, settings, browser: await firstFactor(a) }
  }

  it("is off by default; when on, a ticked box skips the second factor in that browser only, until the user's other sessions are ended", async () => {
    const { revokeOtherSessions } = await import("@sesame/core")
    const { a, authenticator, settings, browser } = await atTheChallenge()
    expect(await (await send(a.config, "/auth/two-factor", { jar: browser })).text()).toMatch(/name="remember"/)
    await submitCode(a.config, browser, { code: authenticator.code(), remember: "1" })
    expect(browser.get("sesame.remembered-device")).toBeDefined()
    // Signed out, the same browser signs in with the password alone.
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser)).location).toBe(`${origin}/`)
    expect(await session(a.config, browser)).toMatchObject({ factors: ["password", "remembered-device"] })
    // Another browser is still asked.
    await firstFactor(a)
    // "Sign out everywhere else" forgets remembered devices.
    advance(1000)
    await revokeOtherSessions(new Request(`${origin}/`, { headers: { cookie: settings.header() } }), a.config)
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser)).location).toBe(challengeUrl)
  })

  it("ending every other session forgets remembered devices while two-factor sign-in is off too: turned back on, the device is asked", async () => {
    const { revokeOtherSessions } = await import("@sesame/core")
    const { a, authenticator, settings, browser } = await atTheChallenge()
    await submitCode(a.config, browser, { code: authenticator.code(), remember: "1" })
    // The app turns two-factor sign-in off for a while; the user signs out everywhere else meanwhile.
    const off = { ...a.config, twoFactor: false as const }
    advance(1000)
    await revokeOtherSessions(new Request(`${origin}/`, { headers: { cookie: settings.header() } }), off)
    // Back on, the device remembered before is not trusted any more.
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser)).location).toBe(challengeUrl)
  })

  it("a remembered-device cookie of another user does not count", async () => {
    const a = app({ twoFactor: { rememberDevice: 3600 } })
    await ada(a)
    await ada(a, "bob@example.com")
    const { authenticator } = await enrol(a)
    await enrol(a, "bob@example.com")
    advance(step)
    const browser = await firstFactor(a)
    await submitCode(a.config, browser, { code: authenticator.code(), remember: "1" })
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser, "bob@example.com")).location).toBe(challengeUrl)
  })

  it("with the option on, a browser whose box was not ticked is not remembered", async () => {
    const a = app({ twoFactor: { rememberDevice: 3600 } })
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const browser = await firstFactor(a)
    await submitCode(a.config, browser, { code: authenticator.code() })
    expect(browser.get("sesame.remembered-device")).toBeUndefined()
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser)).location).toBe(challengeUrl)
  })

  it("without the option, a posted remember=1 sets nothing", async () => {
    const a = app()
    await ada(a)
    const { authenticator } = await enrol(a)
    advance(step)
    const browser = await firstFactor(a)
    await submitCode(a.config, browser, { code: authenticator.code(), remember: "1" })
    expect(browser.get("sesame.remembered-device")).toBeUndefined()
  })
})

describe("changing the second factor", () => {
  it("disabling needs a fresh code; a wrong or replayed one is refused; afterwards sign-in asks nothing", async () => {
    const a = app()
    const user = await ada(a)
    const { jar, authenticator } = await enrol(a)
    const replayed = await post(a.config, "/auth/two-factor/disable", { code: "000000" }, jar)
    expect(replayed.location).toBe(`${origin}/auth/two-factor/setup?error=InvalidCode`)
    expect(await storedTwoFactor(a.adapter, user.id)).not.toBeNull()
    advance(step)
    const done = await post(a.config, "/auth/two-factor/disable", { code: authenticator.code() }, jar)
    expect(done.location).toBe(`${origin}/auth/two-factor/setup?notice=disabled`)
    expect(await storedTwoFactor(a.adapter, user.id)).toBeNull()
    expect(await countRecoveryCodes(a.adapter, user.id)).toBe(0)
    expect((await signInWithPassword(a.config, new CookieJar())).location).toBe(`${origin}/`)
    expect(a.recorded.changes.map((c) => c.change)).toEqual(["enabled", "disabled"])
  })

  it("new recovery codes need a fresh code and replace the old ones", async () => {
    const a = app()
    await ada(a)
    const { jar, authenticator, codes } = await enrol(a)
    advance(step)
    const renewed = await post(a.config, "/auth/two-factor/recovery-codes", { code: authenticator.code() }, jar)
    const fresh = recoveryCodesOf(await renewed.response.text())
    expect(fresh).toHaveLength(10)
    expect(fresh).not.toContain(codes[0])
    const old = await firstFactor(a)
    expect((await submitCode(a.config, old, { recoveryCode: codes[0]! })).location).toMatch(/error=InvalidCode/)
    const current = await firstFactor(a)
    expect((await submitCode(a.config, current, { recoveryCode: fresh[0]! })).location).toBe(`${origin}/`)
  })

  it("a stranger's session cannot reach another user's settings: every form acts on the session's own user", async () => {
    const a = app()
    const adaUser = await ada(a)
    await ada(a, "eve@example.com")
    await enrol(a)
    const eve = new CookieJar()
    await signInWithPassword(a.config, eve, "eve@example.com")
    await post(a.config, "/auth/two-factor/disable", { code: "123456" }, eve)
    expect(await storedTwoFactor(a.adapter, adaUser.id)).not.toBeNull()
  })
})

describe("step-up", () => {
  it("a stale session is refused by requireRecentSignIn and sent to re-authenticate; a fresh code renews it and a new database session replaces the old", async () => {
    const { requireRecentSignIn } = await import("@sesame/core")
    const a = app()
    await ada(a)
    const { jar, authenticator } = await enrol(a)
    const request = () => new Request(`${origin}/settings/delete`, { headers: { cookie: jar.header() } })
    expect(await requireRecentSignIn(request(), a.config)).toEqual({ recent: true })
    advance(11 * 60_000)
    const stale = await requireRecentSignIn(request(), a.config)
    expect(stale).toEqual({
      recent: false,
      reason: "SignInTooOld",
      redirect: `${origin}/auth/reauthenticate?callbackUrl=${encodeURIComponent(`${origin}/settings/delete`)}`,
    })
    expect(await requireRecentSignIn(request(), a.config, { maxAge: 3600 })).toEqual({ recent: true })
    const page = await send(a.config, stale.recent ? "" : stale.redirect, { jar })
    expect(await page.text()).toMatch(/autocomplete="one-time-code"/)
    const before = jar.get("sesame.session-token")
    const wrong = await post(a.config, "/auth/reauthenticate", { code: "000000", callbackUrl: `${origin}/settings/delete` }, jar)
    expect(wrong.location).toMatch(/\/auth\/reauthenticate\?.*error=InvalidCode/)
    const done = await post(a.config, "/auth/reauthenticate", { code: authenticator.code(), callbackUrl: `${origin}/settings/delete` }, jar)
    expect(done.location).toBe(`${origin}/settings/delete`)
    expect(jar.get("sesame.session-token")).not.toBe(before)
    expect(await requireRecentSignIn(request(), a.config)).toEqual({ recent: true })
    // The old session token is gone.
    const old = new CookieJar()
    old.cookies.set("sesame.session-token", before!)
    expect(await session(a.config, old)).toBeNull()
    expect(await requireRecentSignIn(new Request(`${origin}/x`), a.config)).toMatchObject({ recent: false, reason: "NotSignedIn" })
  })

  it("JWT sessions: re-authentication renews the sign-in time and keeps what the jwt callback stored", async () => {
    const { requireRecentSignIn } = await import("@sesame/core")
    const a = app({ strategy: "jwt" })
    await ada(a)
    const config = { ...a.config, callbacks: { ...a.config.callbacks, jwt: ({ token, trigger }: { token: Record<string, unknown>; trigger?: string }) => (trigger === "signIn" ? { ...token, role: "admin" } : token) } }
    const { jar, authenticator } = await enrol({ ...a, config })
    advance(11 * 60_000)
    const request = () => new Request(`${origin}/`, { headers: { cookie: jar.header() } })
    expect((await requireRecentSignIn(request(), config)).recent).toBe(false)
    await post(config, "/auth/reauthenticate", { code: authenticator.code() }, jar)
    expect((await requireRecentSignIn(request(), config)).recent).toBe(true)
    const { decode } = await import("@sesame/core/jwt")
    const token = await decode({ token: jar.get("sesame.session-token")!, secret: (config as { secret: string }).secret, salt: "sesame.session-token" })
    expect(token).toMatchObject({ role: "admin", factors: ["password"] })
  })
})

describe("configuration", () => {
  it("turns on with an adapter that stores second factors; refuses options it cannot honour", async () => {
    const a = app({ twoFactor: { rememberDevice: -1 } })
    const response = await Auth(new Request(`${origin}/auth/session`), a.config)
    expect(response.status).toBe(500)
    // An adapter of Sesame 0.1 kept second factors through methods of its own: without the store
    // where they live now, its users' factors would be unseen, so the configuration is refused.
    const { store: _none, ...zeroOne } = a.adapter
    const legacy = { ...zeroOne, getTwoFactor: async () => null, setTwoFactor: async () => undefined, useRecoveryCode: async () => false }
    const refusedLegacy = await Auth(new Request(`${origin}/auth/session`), { ...a.config, providers: [Credentials({ authorize: () => null })], twoFactor: undefined, adapter: legacy })
    expect(refusedLegacy.status).toBe(500)
    // An adapter without a store (Auth.js's), under the one provider that needs none.
    const { store: _, ...partial } = a.adapter
    const credentials = Credentials({ authorize: () => null })
    const lacking = await Auth(new Request(`${origin}/auth/session`), { ...a.config, providers: [credentials], twoFactor: {}, adapter: partial })
    expect(lacking.status).toBe(500)
    // Without options, an adapter that lacks the store just leaves two-factor sign-in off.
    const off = await Auth(new Request(`${origin}/auth/two-factor/setup`), { ...a.config, providers: [credentials], twoFactor: undefined, adapter: partial })
    expect(off.status).toBe(404)
  })
})
