/**
 * Codes by email as the second factor, for users without an authenticator app: turned on from the
 * settings page, sent when the first factor passes, and every attack on them: a wrong code, an
 * expired one, guessing, a code replayed in another sign-in, a flood of resends. Also: the first
 * factor being an email code or link itself, and what happens without a provider that sends codes.
 */
import { describe, expect, it } from "vitest"
import { CookieJar, frozenClock, origin, send } from "../helpers.js"
import { recordingEmail } from "../email/helpers.js"
import { ada, app, challengeUrl, firstFactor, hasSession, post, recoveryCodesOf, session, signInWithPassword, submitCode } from "./harness.js"
import { storeTwoFactor, storedTwoFactor } from "../../src/two-factor/storage.js"

const advance = frozenClock("2026-11-25T10:00:00Z")
const signInPage = (error: string) => `${origin}/auth/signin?error=${error}&callbackUrl=${encodeURIComponent(`${origin}/`)}`

function emailApp() {
  const { provider, sent } = recordingEmail({ code: true })
  const a = app()
  a.config.providers = [...a.config.providers, provider]
  /** The code of the last email to `to`. */
  const lastCode = (to = "ada@example.com") => {
    const code = sent.filter((m) => m.identifier === to).at(-1)?.code
    if (!code) throw new Error(`no code sent to ${to}`)
    return code
  }
  return { ...a, sent, lastCode }
}

/** Ada, signed in, turns on codes by email; returns her recovery codes. */
async function enrolEmail(a: ReturnType<typeof emailApp>) {
  const jar = new CookieJar()
  await signInWithPassword(a.config, jar)
  const page = await (await send(a.config, "/auth/two-factor/setup", { jar })).text()
  expect(page).toMatch(/name="method" value="email"/)
  const enabled = await post(a.config, "/auth/two-factor/setup", { method: "email" }, jar)
  const codes = recoveryCodesOf(await enabled.response.text())
  expect(codes).toHaveLength(10)
  return { jar, codes }
}

describe("codes by email as the second factor", () => {
  it("turns on without a code (the address is confirmed and the sign-in recent), sends a code when the password passes, and the code completes the sign-in", async () => {
    const a = emailApp()
    const user = await ada(a)
    await enrolEmail(a)
    expect(await storedTwoFactor(a.adapter, user.id)).toMatchObject({ method: "email", secret: null })
    const jar = new CookieJar()
    const { location } = await signInWithPassword(a.config, jar)
    expect(location).toBe(`${challengeUrl}?sent=1`)
    expect(hasSession(jar)).toBe(false)
    const mail = a.sent.at(-1)!
    expect(mail.identifier).toBe("ada@example.com")
    expect(mail.url).toBe(challengeUrl)
    expect(mail.message.text).toContain(mail.code)
    const page = await (await send(a.config, "/auth/two-factor?sent=1", { jar })).text()
    expect(page).toMatch(/autocomplete="one-time-code"/)
    expect(page).not.toContain("ada@example.com")
    expect((await submitCode(a.config, jar, { code: a.lastCode() })).location).toBe(`${origin}/`)
    expect(await session(a.config, jar)).toMatchObject({ factors: ["password", "email-code"] })
  })

  it("a wrong code is refused and the right one still works; five wrong codes end the pending sign-in", async () => {
    const a = emailApp()
    await ada(a)
    await enrolEmail(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const code = a.lastCode()
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    expect((await submitCode(a.config, jar, { code: wrong })).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect((await submitCode(a.config, jar, { code })).location).toBe(`${origin}/`)

    const guesser = new CookieJar()
    await signInWithPassword(a.config, guesser)
    const right = a.lastCode()
    let last = ""
    for (let i = 0; i < 5; i++) last = (await submitCode(a.config, guesser, { code: String(i).padStart(6, "0") === right ? "999999" : String(i).padStart(6, "0") })).location
    expect(last).toBe(signInPage("TwoFactorLocked"))
    expect((await submitCode(a.config, guesser, { code: right })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(guesser)).toBe(false)
  })

  it("a code works once and only for the sign-in it was sent for", async () => {
    const a = emailApp()
    await ada(a)
    await enrolEmail(a)
    const first = new CookieJar()
    await signInWithPassword(a.config, first)
    const code = a.lastCode()
    // Another pending sign-in (its own code sent) cannot use the first one's code.
    const other = new CookieJar()
    await signInWithPassword(a.config, other)
    expect((await submitCode(a.config, other, { code })).location).toBe(`${challengeUrl}?error=InvalidCode`)
    expect((await submitCode(a.config, first, { code })).location).toBe(`${origin}/`)
    // Used: a copy of the first pending cookie, or the code again, gets nothing.
    expect((await submitCode(a.config, other, { code })).location).toBe(`${challengeUrl}?error=InvalidCode`)
  })

  it("an expired code is refused: the pending sign-in (5 minutes) and the code (10 minutes) both end", async () => {
    const a = emailApp()
    await ada(a)
    await enrolEmail(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const code = a.lastCode()
    advance(6 * 60_000)
    expect((await submitCode(a.config, jar, { code })).location).toBe(signInPage("TwoFactorExpired"))
    expect(hasSession(jar)).toBe(false)
  })

  it("the challenge page says a code expired (error=CodeExpired) in words of its own, never the default message", async () => {
    const a = emailApp()
    await ada(a)
    await enrolEmail(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const page = await (await send(a.config, "/auth/two-factor?error=CodeExpired", { jar })).text()
    expect(page).toContain("That code has expired. Send a new one, then enter it.")
    expect(page).not.toContain("Something went wrong")
  })

  it("resending is limited: at most five codes per user in 15 minutes, then the page says sending failed", async () => {
    const a = emailApp()
    await ada(a)
    await enrolEmail(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    const before = a.sent.length
    const answers: string[] = []
    for (let i = 0; i < 5; i++) answers.push((await post(a.config, "/auth/two-factor/email", {}, jar)).location)
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(`${challengeUrl}?sent=1`))
    expect(answers[4]).toBe(`${challengeUrl}?error=SendFailed`)
    expect(a.sent.length - before).toBe(4)
    // The newest code works (older ones of this sign-in too, until they expire).
    expect((await submitCode(a.config, jar, { code: a.lastCode() })).location).toBe(`${origin}/`)
  })

  it("a recovery code works for email users too; turning codes off needs a recent sign-in", async () => {
    const a = emailApp()
    const user = await ada(a)
    const { jar, codes } = await enrolEmail(a)
    const pending = await firstFactor(a).catch(() => null)
    expect(pending).toBeNull() // the challenge URL carries ?sent=1 for email users
    const other = new CookieJar()
    await signInWithPassword(a.config, other)
    expect((await submitCode(a.config, other, { recoveryCode: codes[3]! })).location).toBe(`${origin}/`)
    advance(11 * 60_000)
    const stale = await post(a.config, "/auth/two-factor/disable", {}, jar)
    expect(stale.location).toMatch(/\/auth\/reauthenticate\?/)
    expect(await storedTwoFactor(a.adapter, user.id)).not.toBeNull()
  })

  it("is not offered without a provider that sends codes, nor to a user whose address is not confirmed", async () => {
    const a = app()
    await ada(a)
    const jar = new CookieJar()
    await signInWithPassword(a.config, jar)
    expect(await (await send(a.config, "/auth/two-factor/setup", { jar })).text()).not.toMatch(/name="method" value="email"/)
    const refused = await post(a.config, "/auth/two-factor/setup", { method: "email" }, jar)
    expect(refused.response.status).toBe(400)

    const e = emailApp()
    const unconfirmed = await ada(e, "new@example.com")
    await e.adapter.updateUser({ id: unconfirmed.id, emailVerified: null })
    const browser = new CookieJar()
    await signInWithPassword(e.config, browser, "new@example.com")
    expect(await (await send(e.config, "/auth/two-factor/setup", { jar: browser })).text()).not.toMatch(/name="method" value="email"/)
  })
})

describe("an email first factor", () => {
  it("an email code sign-in of a user with an authenticator app still asks for the app's code", async () => {
    const a = emailApp()
    const user = await ada(a)
    await storeTwoFactor(a.adapter, { userId: user.id, method: "totp", secret: "not used here", enabledAt: new Date(), devicesRevokedAt: null })
    const jar = new CookieJar()
    await send(a.config, "/auth/signin/email", { jar, form: { csrfToken: await (await import("../helpers.js")).csrfToken(a.config, jar), email: "ada@example.com" } })
    const answer = await post(a.config, "/auth/callback/email", { code: a.lastCode() }, jar)
    expect(answer.location).toBe(challengeUrl)
    expect(hasSession(jar)).toBe(false)
  })
})
