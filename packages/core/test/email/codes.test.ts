/**
 * One-time codes sent by the email provider (`code: true | "only"`): signing in with the code in
 * the browser that asked for it, beside the link or instead of it; the tries, the expiry, single
 * use, the binding to the browser, the same answers whatever the address, the page's form, and the
 * functions two-factor sign-in uses.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { encode } from "@sesame/core/jwt"
import { memoryRateLimitStore, type SendVerificationRequestParams } from "@sesame/core/providers/email"
import { oneTimeHash } from "../../src/adapters/one-time-tokens.js"
import { checkAdapter } from "../../src/adapters/wrap.js"
import { resolveConfig } from "../../src/config/resolve.js"
import { checkEmailCode, codeSendingProvider, newEmailCode, storeEmailCode } from "../../src/email/code.js"
import { memoryCounterStore } from "../../src/password/counters.js"
import { csrfToken, origin, secret, send } from "../helpers.js"
import { CookieJar, emailConfig, followLink, recordingEmail, requestLink, sessionOf } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const cookieName = "sesame.email-code"
const verifyRequest = `${origin}/auth/verify-request?provider=email&type=email`

/** The code of the last email sent. */
function lastCode(sent: readonly SendVerificationRequestParams[]): string {
  const code = sent.at(-1)?.code
  if (!code) throw new Error("No code was sent.")
  return code
}

/** Types `code` on the verify-request page of `jar`'s browser: the form as the page posts it. */
async function typeCode(config: AuthConfig, jar: CookieJar, code: string, extra: Record<string, string> = {}): Promise<Response> {
  const token = await csrfToken(config, jar)
  return send(config, "/auth/callback/email", { jar, form: { csrfToken: token, code, ...extra } })
}

function location(res: Response): URL {
  expect(res.status).toBe(302)
  return new URL(res.headers.get("location")!)
}

/** A code that is not `code`. */
function otherThan(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0")
}

/** A setup whose provider sends codes (`mode`), with a rate limit of its own. */
function codeSetup(mode: true | "only" = "only", overrides: Partial<AuthConfig> = {}, perAddress: number | false = 5) {
  const { provider, sent } = recordingEmail({ code: mode, rateLimit: { perAddress, store: memoryRateLimitStore() } })
  return { ...emailConfig([provider], overrides), sent }
}

describe("signing in with a code", () => {
  it('"only": the email has the code and no link; typing it in the same browser signs in, as a link would', async () => {
    const { config, adapter, sent } = codeSetup("only")
    const jar = new CookieJar()
    const asked = await requestLink(config, jar, "Ada@Example.com", { callbackUrl: `${origin}/dashboard` })
    expect(location(asked).href).toBe(verifyRequest)
    expect(jar.get(cookieName)).toBeTruthy()

    expect(sent).toHaveLength(1)
    const [params] = sent
    const code = lastCode(sent)
    expect(code).toMatch(/^[0-9]{6}$/)
    expect(params!.token).toBe(code)
    expect(params!.url).toBe(verifyRequest)
    expect(params!.identifier).toBe("ada@example.com")
    expect(params!.message.subject).toBe("Your sign-in code for localhost:3000")
    expect(params!.message.text).toContain(`\n${code}\n`)
    expect(params!.message.html).toContain(`>${code}</span>`)
    expect(params!.message.text).not.toMatch(/https?:/)
    expect(params!.message.html).not.toContain("/auth/callback/")
    // Only the code's keyed hash is stored: no link token, no code in the clear.
    const stored = [...adapter.tables.verificationTokens.values()]
    expect(stored).toHaveLength(1)
    expect(stored[0]!.identifier).toMatch(/^sesame-code:/)
    expect(JSON.stringify(stored)).not.toContain(code)

    const done = await typeCode(config, jar, code, { callbackUrl: `${origin}/dashboard` })
    expect(location(done).href).toBe(`${origin}/dashboard`)
    expect(jar.get(cookieName)).toBeUndefined()
    expect(await sessionOf(config, jar)).toMatchObject({ user: { email: "ada@example.com" } })
    const [user] = adapter.tables.users.values()
    expect(user!.emailVerified).toBeInstanceOf(Date)
    expect(adapter.tables.verificationTokens.size).toBe(0)
  })

  it("the code beside the link: one email with both, and either signs in (using one leaves the other usable)", async () => {
    const { config, adapter, sent } = codeSetup(true)
    const asking = new CookieJar()
    await requestLink(config, asking, "ada@example.com")
    expect(sent).toHaveLength(1)
    const [params] = sent
    const code = lastCode(sent)
    expect(params!.url).toMatch(/^http:\/\/localhost:3000\/auth\/callback\/email\?/)
    expect(new URL(params!.url).searchParams.get("token")).toBe(params!.token)
    expect(params!.token).not.toBe(code)
    expect(params!.message.text).toContain(code)
    expect(params!.message.text).toContain(params!.url)
    expect(params!.message.html).toContain(`>${code}</span>`)
    expect(params!.message.html).toContain(`href="${params!.url.replace(/&/g, "&amp;")}"`)
    expect(adapter.tables.verificationTokens.size).toBe(2)

    // The link, on the phone where the mail was read…
    const phone = new CookieJar()
    await followLink(config, phone, params!.url)
    expect(await sessionOf(config, phone)).toMatchObject({ user: { email: "ada@example.com" } })
    // …and the code, in the browser that asked: each is single-use on its own.
    await typeCode(config, asking, code)
    expect(await sessionOf(config, asking)).toMatchObject({ user: { email: "ada@example.com" } })
    expect(adapter.tables.users.size).toBe(1)
  })

  it("takes the code with spaces (and an IME's full-width digits)", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const code = lastCode(sent)
    await typeCode(config, jar, ` ${code.slice(0, 3)} ${code.slice(3)} `)
    expect(await sessionOf(config, jar)).not.toBeNull()

    const other = new CookieJar()
    await requestLink(config, other, "bob@example.com")
    const wide = [...lastCode(sent)].map((d) => String.fromCharCode(0xff10 + Number(d))).join("")
    await typeCode(config, other, wide)
    expect(await sessionOf(config, other)).toMatchObject({ user: { email: "bob@example.com" } })
  })

  it("runs the signIn callback again when the code is typed, which can still refuse", async () => {
    let allow = true
    const { config, sent } = codeSetup("only", { callbacks: { signIn: ({ email }) => (email?.verificationRequest ? true : allow) } })
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    allow = false
    const res = await typeCode(config, jar, lastCode(sent))
    expect(location(res).searchParams.get("error")).toBe("AccessDenied")
    expect(await sessionOf(config, jar)).toBeNull()
  })
})

describe("wrong, expired, used and misplaced codes", () => {
  it("a wrong code goes back to the page with InvalidCode; the right one then works", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const code = lastCode(sent)
    for (const wrong of [otherThan(code), "12345", "abcdef"]) {
      const res = await typeCode(config, jar, wrong)
      expect(location(res).href).toBe(`${verifyRequest}&error=InvalidCode`)
      expect(jar.get(cookieName)).toBeTruthy()
    }
    await typeCode(config, jar, code)
    expect(await sessionOf(config, jar)).not.toBeNull()
  })

  it("after 5 wrong codes even the right one is refused: the fifth ends on the sign-in page with Verification", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com", { callbackUrl: `${origin}/dashboard` })
    const code = lastCode(sent)
    const kept = jar.header()
    for (let i = 0; i < 4; i++) expect(location(await typeCode(config, jar, otherThan(code))).searchParams.get("error")).toBe("InvalidCode")
    const fifth = location(await typeCode(config, jar, otherThan(code), { callbackUrl: `${origin}/dashboard` }))
    expect(fifth.pathname).toBe("/auth/signin")
    expect(fifth.searchParams.get("error")).toBe("Verification")
    expect(fifth.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)
    expect(jar.get(cookieName)).toBeUndefined()

    // The right code, with a copy of the cookie taken before the tries: still refused.
    const copy = new CookieJar()
    for (const pair of kept.split("; ")) copy.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
    const res = location(await typeCode(config, copy, code))
    expect(res.pathname).toBe("/auth/signin")
    expect(res.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(config, copy)).toBeNull()
  })

  it("an expired code is refused (sign-in page, Verification), and so is one whose cookie has expired (error page)", async () => {
    const { config, adapter, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    for (const token of adapter.tables.verificationTokens.values()) token.expires = new Date(Date.now() - 1000)
    const res = location(await typeCode(config, jar, lastCode(sent)))
    expect(res.pathname).toBe("/auth/signin")
    expect(res.searchParams.get("error")).toBe("Verification")
    expect(jar.get(cookieName)).toBeUndefined()
    expect(await sessionOf(config, jar)).toBeNull()

    // Ten minutes on: the code has expired (its cookie still opens, within the sealing's clock tolerance).
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const later = new CookieJar()
    await requestLink(config, later, "ada@example.com")
    vi.setSystemTime(new Date("2030-01-01T00:10:01Z"))
    const expired = location(await typeCode(config, later, lastCode(sent)))
    expect(expired.pathname).toBe("/auth/signin")
    expect(expired.searchParams.get("error")).toBe("Verification")

    // Later still, the cookie itself no longer opens.
    const latest = new CookieJar()
    vi.setSystemTime(new Date("2030-01-01T01:00:00Z"))
    await requestLink(config, latest, "ada@example.com")
    vi.setSystemTime(new Date("2030-01-01T01:10:30Z"))
    const late = location(await typeCode(config, latest, lastCode(sent)))
    expect(late.pathname).toBe("/auth/error")
    expect(late.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(config, later)).toBeNull()
    expect(await sessionOf(config, latest)).toBeNull()
  })

  it("a code works once: replayed with a copy of the cookie, it is wrong", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const code = lastCode(sent)
    const copy = new CookieJar()
    copy.cookies.set(cookieName, jar.cookies.get(cookieName)!)
    await typeCode(config, jar, code)
    expect(await sessionOf(config, jar)).not.toBeNull()
    expect(location(await typeCode(config, copy, code)).searchParams.get("error")).toBe("InvalidCode")
    expect(await sessionOf(config, copy)).toBeNull()
  })

  it("is refused in another browser (no cookie) and with an altered cookie: Verification, as an expired link", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const code = lastCode(sent)

    const elsewhere = new CookieJar()
    const res = location(await typeCode(config, elsewhere, code))
    expect(res.pathname).toBe("/auth/error")
    expect(res.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(config, elsewhere)).toBeNull()

    const tampered = new CookieJar()
    const sealed = jar.cookies.get(cookieName)!
    tampered.cookies.set(cookieName, `${sealed.slice(0, -4)}${sealed.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`)
    const altered = location(await typeCode(config, tampered, code))
    expect(altered.pathname).toBe("/auth/error")
    expect(altered.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(config, tampered)).toBeNull()

    // The code was not spent by those attempts: the browser that asked still signs in with it.
    await typeCode(config, jar, code)
    expect(await sessionOf(config, jar)).not.toBeNull()
  })

  it("a sealed cookie that lacks a field is refused like an altered one", async () => {
    const { config, sent } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    for (const contents of [
      { email: "ada@example.com", provider: "email", callbackUrl: `${origin}/` },
      { email: "ada@example.com", binding: 42, provider: "email", callbackUrl: `${origin}/` },
    ]) {
      const forged = new CookieJar()
      forged.cookies.set(cookieName, await encode({ token: contents, secret, salt: cookieName, maxAge: 600 }))
      const res = location(await typeCode(config, forged, lastCode(sent)))
      expect(res.pathname).toBe("/auth/error")
      expect(res.searchParams.get("error")).toBe("Verification")
      const page = await (await send(config, "/auth/verify-request", { jar: forged })).text()
      expect(page).not.toContain("<form")
    }
  })

  it("a code asked of one provider is refused at another's callback", async () => {
    const first = recordingEmail({ code: "only", rateLimit: false })
    const second = recordingEmail({ id: "other", code: "only", rateLimit: false })
    const { config } = emailConfig([first.provider, second.provider])
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const token = await csrfToken(config, jar)
    const res = location(await send(config, "/auth/callback/other", { jar, form: { csrfToken: token, code: lastCode(first.sent) } }))
    expect(res.pathname).toBe("/auth/error")
    expect(res.searchParams.get("error")).toBe("Verification")
    expect(await sessionOf(config, jar)).toBeNull()
  })

  it("a code is good only with its own binding: another browser's code is wrong here", async () => {
    const { config, sent } = codeSetup()
    const [mine, theirs] = [new CookieJar(), new CookieJar()]
    await requestLink(config, mine, "ada@example.com")
    const myCode = lastCode(sent)
    await requestLink(config, theirs, "ada@example.com")
    const theirCode = lastCode(sent)
    expect(location(await typeCode(config, mine, theirCode)).searchParams.get("error")).toBe(theirCode === myCode ? null : "InvalidCode")
    expect(await sessionOf(config, mine)).toBeNull()
    await typeCode(config, theirs, theirCode)
    expect(await sessionOf(config, theirs)).not.toBeNull()
  })
})

describe("no enumeration", () => {
  /** What a visitor can compare: status, where it goes, and the cookies set (names and attributes, not the sealed values). */
  function observable(res: Response) {
    return {
      status: res.status,
      location: res.headers.get("location"),
      cookies: res.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, "=…").replace(/Expires=[^;]*/, "Expires=…")),
    }
  }

  it("a known address, a new one and one over the rate limit get the same answer and the same cookie; the limited one gets no email", async () => {
    const { config, adapter, sent } = codeSetup("only", {}, 2)
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() })
    const known = observable(await requestLink(config, new CookieJar(), "ada@example.com"))
    const unknown = observable(await requestLink(config, new CookieJar(), "nobody@example.com"))
    await requestLink(config, new CookieJar(), "ada@example.com")
    expect(sent).toHaveLength(3)
    const limitedJar = new CookieJar()
    const limited = observable(await requestLink(config, limitedJar, "ada@example.com"))
    expect(sent).toHaveLength(3)
    expect(known.cookies.some((c) => c.startsWith(`${cookieName}=`))).toBe(true)
    expect(unknown).toEqual(known)
    expect(limited).toEqual(known)
    // Its binding matches nothing: every code is wrong there, and the page is the same.
    expect(location(await typeCode(config, limitedJar, lastCode(sent))).searchParams.get("error")).toBe("InvalidCode")
    expect(await (await send(config, "/auth/verify-request", { jar: limitedJar })).text()).toContain('autocomplete="one-time-code"')
  })

  it("an address the signIn callback refuses: AccessDenied as for links, no email, and the cookie all the same", async () => {
    const { config, adapter, sent } = codeSetup("only", { callbacks: { signIn: ({ user }) => !user.email?.endsWith("@blocked.example") } })
    const res = await requestLink(config, new CookieJar(), "eve@blocked.example")
    expect(location(res).searchParams.get("error")).toBe("AccessDenied")
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${cookieName}=`))).toBe(true)
    expect(sent).toEqual([])
    expect(adapter.tables.verificationTokens.size).toBe(0)
  })

  it("the per-address limit counts code requests: beyond it nothing is stored or sent", async () => {
    const { config, adapter, sent } = codeSetup(true, {}, 2)
    for (let i = 0; i < 4; i++) await requestLink(config, new CookieJar(), "ada@example.com")
    expect(sent).toHaveLength(2)
    // Two emails, each with a code and a link.
    expect(adapter.tables.verificationTokens.size).toBe(4)
    await requestLink(config, new CookieJar(), "bob@example.com")
    expect(sent).toHaveLength(3)
  })
})

describe("the verify-request page", () => {
  it("shows the code form to the browser that asked, and the plain page to any other", async () => {
    const { config } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com", { callbackUrl: `${origin}/after?x=1&y=2` })
    const html = await (await send(config, "/auth/verify-request?provider=email&type=email", { jar })).text()
    const input = /<input id="verify-code"[^>]*>/.exec(html)?.[0]
    expect(input).toBeDefined()
    for (const attribute of ['name="code"', 'inputmode="numeric"', 'autocomplete="one-time-code"', 'pattern="[0-9]*"', 'maxlength="7"', "required"]) {
      expect(input).toContain(attribute)
    }
    expect(html).toContain('<form action="http://localhost:3000/auth/callback/email" method="POST">')
    expect(html).toContain(`name="csrfToken" value="${await csrfToken(config, jar)}"`)
    expect(html).toContain('name="callbackUrl" value="http://localhost:3000/after?x=1&amp;y=2"')
    expect(html).toContain('<label for="verify-code">Sign-in code</label>')
    expect(html).not.toContain("ada@example.com")
    expect(html).not.toContain('role="alert"')

    const plain = await (await send(config, "/auth/verify-request?provider=email&type=email", { jar: new CookieJar() })).text()
    expect(plain).not.toContain("<form")
    expect(plain).toContain("We’ve emailed you a link to sign in.")
  })

  it("says what was sent: a code alone, or a link and a code", async () => {
    for (const [mode, text] of [
      ["only", "We’ve emailed you a six-digit code."],
      [true, "We’ve emailed you a link and a six-digit code."],
    ] as const) {
      const { config } = codeSetup(mode)
      const jar = new CookieJar()
      await requestLink(config, jar, "ada@example.com")
      expect(await (await send(config, "/auth/verify-request", { jar })).text()).toContain(text)
    }
  })

  it("shows a fixed message for ?error=, never the value", async () => {
    const { config } = codeSetup()
    const jar = new CookieJar()
    await requestLink(config, jar, "ada@example.com")
    const page = (error: string) => send(config, `/auth/verify-request?error=${encodeURIComponent(error)}`, { jar }).then((r) => r.text())
    expect(await page("InvalidCode")).toContain('<div class="alert" role="alert">That code isn’t right. Check the email and try again.</div>')
    expect(await page("CodeExpired")).toContain("Ask for a new one.")
    const odd = await page("<b>hello</b>")
    expect(odd).toContain("Something went wrong. Try again, or ask for a new code.")
    expect(odd).not.toContain("hello")
  })

  it("is in the visitor's language, and so is the email", async () => {
    const expected = {
      en: ["Sign-in code", "Your sign-in code for localhost:3000"],
      fr: ["Code de connexion", "Votre code de connexion pour localhost:3000"],
      de: ["Anmeldecode", "Ihr Anmeldecode für localhost:3000"],
      es: ["Código de inicio de sesión", "Tu código para iniciar sesión en localhost:3000"],
      ja: ["ログインコード", "localhost:3000 のログインコード"],
    }
    for (const [lang, [label, subject]] of Object.entries(expected)) {
      const { config, sent } = codeSetup()
      const jar = new CookieJar()
      await requestLink(config, jar, "ada@example.com", { headers: { "accept-language": lang } })
      expect(sent[0]!.message.subject).toBe(subject)
      expect(sent[0]!.message.html).toContain(`<html lang="${lang}">`)
      expect(sent[0]!.message.text).toMatch(/10/)
      const html = await (await send(config, "/auth/verify-request", { jar, headers: { "accept-language": lang } })).text()
      expect(html).toContain(`<label for="verify-code">${label}</label>`)
    }
  })
})

describe("when the email cannot be sent", () => {
  it("removes the code and the link, answers EmailSignin, and logs neither", async () => {
    const { provider } = recordingEmail({
      code: true,
      rateLimit: false,
      sendVerificationRequest: ({ code, token }) => {
        throw new Error(`SMTP refused the message with ${code} and ${token}`)
      },
    })
    const { config, adapter, logs } = emailConfig([provider])
    const jar = new CookieJar()
    const res = location(await requestLink(config, jar, "ada@example.com"))
    expect(res.searchParams.get("error")).toBe("EmailSignin")
    expect(adapter.tables.verificationTokens.size).toBe(0)
    const log = logs.join("\n")
    expect(log).toContain("could not send the sign-in email")
    expect(log).toContain("SMTP refused the message with [redacted] and [redacted]")
    expect(log).not.toMatch(/with [0-9]{6} and/)
  })
})

describe("the functions two-factor sign-in uses", () => {
  function store() {
    return { adapter: checkAdapter(MemoryAdapter(), { error() {}, warn() {}, debug() {} }), counters: memoryCounterStore() }
  }
  const secrets = ["secret-b", "secret-a"]
  const inTenMinutes = () => new Date(Date.now() + 10 * 60_000)

  it("newEmailCode: six digits, uniform by rejection, leading zeros kept", () => {
    for (let i = 0; i < 200; i++) expect(newEmailCode()).toMatch(/^[0-9]{6}$/)
    const draws = [4_294_967_295, 4_294_000_000, 42]
    vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      ;(array as unknown as Uint32Array)[0] = draws.shift()!
      return array
    })
    // The two draws at or above the largest multiple of a million are thrown away.
    expect(newEmailCode()).toBe("000042")
    expect(draws).toEqual([])
  })

  it("storeEmailCode: stores the code's keyed hash under the binding, as documented", async () => {
    const { adapter } = store()
    const expires = inTenMinutes()
    await storeEmailCode(adapter, secrets, "pending-0", "000123", expires)
    const token = await oneTimeHash("sesame-email-code", "000123", "secret-b")
    expect(await adapter.useVerificationToken({ identifier: "sesame-code:pending-0", token })).toEqual({ identifier: "sesame-code:pending-0", token, expires })
  })

  it("checkEmailCode: ok once, wrong, expired, and exhausted after 5 tries", async () => {
    const { adapter, counters } = store()
    await storeEmailCode(adapter, secrets, "pending-1", "012345", inTenMinutes())
    expect(await checkEmailCode(adapter, counters, secrets, "pending-1", "012 345")).toBe("ok")
    expect(await checkEmailCode(adapter, counters, secrets, "pending-1", "012345")).toBe("wrong")

    await storeEmailCode(adapter, secrets, "pending-2", "111111", new Date(Date.now() - 1))
    expect(await checkEmailCode(adapter, counters, secrets, "pending-2", "111111")).toBe("expired")

    await storeEmailCode(adapter, secrets, "pending-3", "222222", inTenMinutes())
    const answers = []
    for (const typed of ["000000", "12", "", "abcdef", "333333"]) answers.push(await checkEmailCode(adapter, counters, secrets, "pending-3", typed))
    expect(answers).toEqual(["wrong", "wrong", "wrong", "wrong", "exhausted"])
    expect(await checkEmailCode(adapter, counters, secrets, "pending-3", "222222")).toBe("exhausted")
    expect(await counters.getCounter("sesame:email-code:tries:pending-3")).toMatchObject({ count: 6 })
  })

  it("checkEmailCode: of concurrent tries only 5 are looked up, and the right code is used once", async () => {
    const { adapter, counters } = store()
    await storeEmailCode(adapter, secrets, "b", "123456", inTenMinutes())
    const lookups = vi.spyOn(adapter, "useVerificationToken")
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => checkEmailCode(adapter, counters, secrets, "b", String(i).padStart(6, "9"))))
    expect(lookups).toHaveBeenCalledTimes(5 * secrets.length)
    expect(answers.filter((a) => a === "exhausted").length).toBeGreaterThanOrEqual(15)

    await storeEmailCode(adapter, secrets, "c", "654321", inTenMinutes())
    const both = await Promise.all([checkEmailCode(adapter, counters, secrets, "c", "654321"), checkEmailCode(adapter, counters, secrets, "c", "654321")])
    expect(both.sort()).toEqual(["ok", "wrong"])
  })

  it("checkEmailCode: a code stored under an older secret still works after a rotation; another binding's code does not", async () => {
    const { adapter, counters } = store()
    await storeEmailCode(adapter, ["secret-a"], "d", "777777", inTenMinutes())
    await storeEmailCode(adapter, secrets, "e", "888888", inTenMinutes())
    expect(await checkEmailCode(adapter, counters, secrets, "d", "888888")).toBe("wrong")
    expect(await checkEmailCode(adapter, counters, secrets, "d", "777777")).toBe("ok")
  })

  it("codeSendingProvider: the first email provider with codes on", () => {
    const off = recordingEmail({ id: "links" }).provider
    const on = recordingEmail({ id: "codes", code: "only" }).provider
    const resolve = (providers: AuthConfig["providers"]) => {
      const resolution = resolveConfig({ ...emailConfig(providers).config }, {})
      if (!resolution.ok) throw resolution.error
      return codeSendingProvider(resolution.config)
    }
    expect(resolve([off])).toBeUndefined()
    expect(resolve([off, on])?.id).toBe("codes")
    expect(resolve([off, on])?.code).toBe("only")
  })

  it("a `code` option that is not true, false or \"only\" is a configuration error naming it", () => {
    const bad = recordingEmail({ code: "yes" as never }).provider
    const resolution = resolveConfig({ ...emailConfig([bad]).config }, {})
    expect(resolution.ok).toBe(false)
    if (!resolution.ok) expect(resolution.error.message).toContain('`code` must be true, false or "only"')
  })
})

describe("guessing across many codes", () => {
  it("wrong codes are counted per address across every code sent to it: after five, even a fresh code's right value waits, and the owner gets in after the wait", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.parse("2026-11-25T10:00:00Z"))
    // No send limit here, so that an attacker could ask for as many codes as they like.
    const { config, sent } = codeSetup("only", {}, false)
    for (let i = 0; i < 5; i++) {
      const attacker = new CookieJar()
      await requestLink(config, attacker, "ada@example.com")
      expect(location(await typeCode(config, attacker, otherThan(lastCode(sent)))).searchParams.get("error")).toBe("InvalidCode")
    }
    const owner = new CookieJar()
    await requestLink(config, owner, "ada@example.com")
    const held = location(await typeCode(config, owner, lastCode(sent)))
    expect(held.searchParams.get("error")).toBe("TooManyAttempts")
    expect(await sessionOf(config, owner)).toBeNull()
    // Another address is not held.
    const bob = new CookieJar()
    await requestLink(config, bob, "bob@example.com")
    expect(location(await typeCode(config, bob, lastCode(sent))).pathname).toBe("/")
    // The wait doubles from a second; the owner's code (four tries left) then works.
    vi.setSystemTime(Date.now() + 2_000)
    const owned = sent.filter((m) => m.identifier === "ada@example.com").at(-1)!.code!
    expect(location(await typeCode(config, owner, owned)).pathname).toBe("/")
    expect(await sessionOf(config, owner)).not.toBeNull()
  })
})
