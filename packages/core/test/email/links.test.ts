/**
 * The sign-in link: what is stored, what consumes it (only the confirmation POST), and every way it
 * stops working (used, expired, altered, forged cross-site).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import type { SendVerificationRequestParams } from "@sesame/core/providers/email"
import { origin, secret, send } from "../helpers.js"
import {
  confirmationForm,
  confirmPage,
  CookieJar,
  emailConfig,
  followLink,
  interceptAdapter,
  lastLink,
  openLink,
  recordingEmail,
  requestLink,
  sessionOf,
} from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

function errorOf(res: Response): string | null {
  expect(res.status).toBe(302)
  return new URL(res.headers.get("location")!).searchParams.get("error")
}

async function linkFor(config: AuthConfig, sent: readonly SendVerificationRequestParams[], email = "ada@example.com") {
  const res = await requestLink(config, new CookieJar(), email)
  expect(res.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
  return lastLink(sent)
}

describe("the stored token", () => {
  it("is a keyed hash that differs from the link's token, which has well over 128 bits", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    const link = await linkFor(config, sent)
    const token = new URL(link).searchParams.get("token")!
    expect(token).toBe(sent[0]!.token)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 32 random bytes
    const [stored] = [...adapter.tables.verificationTokens.values()]
    expect(stored!.identifier).toBe("ada@example.com")
    expect(stored!.token).toMatch(/^[0-9a-f]{64}$/)
    expect(stored!.token).not.toContain(token)
    // Every link gets its own token.
    await linkFor(config, sent)
    expect(sent[1]!.token).not.toBe(token)
  })

  it("depends on the secret: the same token under another secret is another hash", async () => {
    const token = "fixed-token-for-this-test-0123456789"
    const stored: string[] = []
    for (const s of [secret, "another-secret-0123456789-abcdefghijklmnop"]) {
      const { provider, sent } = recordingEmail({ generateVerificationToken: () => token })
      const { config, adapter } = emailConfig([provider], { secret: s })
      await linkFor(config, sent)
      stored.push([...adapter.tables.verificationTokens.values()][0]!.token)
    }
    expect(stored[0]).not.toBe(stored[1])
  })
})

describe("opening the link consumes nothing", () => {
  it("GET shows a confirmation page; GET again, HEAD and prefetches leave the token usable", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    const link = await linkFor(config, sent)
    const scanner = new CookieJar()
    const page = await openLink(config, scanner, link)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    await openLink(config, scanner, link)
    const head = await send(config, link, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
    const prefetches: Record<string, string>[] = [{ "sec-purpose": "prefetch" }, { "sec-purpose": "prefetch;prerender" }, { purpose: "prefetch" }, { "x-purpose": "preview" }]
    for (const headers of prefetches) {
      const prefetch = await send(config, link, { headers })
      expect(prefetch.status).toBe(503)
      expect(prefetch.headers.get("cache-control")).toContain("no-store")
      expect(prefetch.headers.getSetCookie()).toEqual([])
    }
    expect(adapter.tables.verificationTokens.size).toBe(1)
    expect(adapter.tables.sessions.size).toBe(0)

    const person = new CookieJar()
    expect(errorOf(await followLink(config, person, link))).toBeNull()
    expect((await sessionOf(config, person))?.user?.email).toBe("ada@example.com")
  })

  it("the page posts the link's fields with a CSRF token to the callback, keeps no token in its form URL, and runs no script", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider])
    const link = await linkFor(config, sent)
    const jar = new CookieJar()
    const page = await openLink(config, jar, link)
    const html = await page.text()
    const { action, fields } = confirmationForm(html)
    expect(action).toBe(`${origin}/auth/callback/email`)
    const url = new URL(link)
    expect(fields).toEqual({
      csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      token: url.searchParams.get("token"),
      email: "ada@example.com",
      callbackUrl: `${origin}/`,
    })
    expect(jar.get("sesame.csrf-token")?.startsWith(`${fields.csrfToken}|`)).toBe(true)
    expect(html).not.toContain("<script")
    expect(html).toMatch(/<button type="submit" class="primary" autofocus>Sign in<\/button>/)
    expect(html).toContain("Sign in to localhost:3000 as ada@example.com?")
    expect(page.headers.get("referrer-policy")).toBe("strict-origin")
    expect(page.headers.get("cache-control")).toContain("no-store")
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(page.headers.get("content-security-policy")).not.toContain("script-src")
  })

  it("escapes what the link carries", async () => {
    const { provider } = recordingEmail()
    const { config } = emailConfig([provider])
    const html = await (await openLink(config, new CookieJar(), `/auth/callback/email?token=a%22%3E%3Cb%3E&email=%3Cscript%3Ealert(1)%3C%2Fscript%3E%40x.com`)).text()
    expect(html).not.toContain("<script>")
    expect(html).not.toContain('a"><b>')
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;@x.com")
  })
})

describe("confirming the link", () => {
  it("works once: a replay ends on the error page with Verification", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    const link = await linkFor(config, sent)
    expect(errorOf(await followLink(config, new CookieJar(), link))).toBeNull()
    const replay = await followLink(config, new CookieJar(), link)
    expect(errorOf(replay)).toBe("Verification")
    expect(new URL(replay.headers.get("location")!).pathname).toBe("/auth/error")
    expect(adapter.tables.sessions.size).toBe(1)
  })

  it("expires after maxAge (24 hours by default): Verification", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider])
    const early = await linkFor(config, sent, "early@example.com")
    const late = await linkFor(config, sent, "late@example.com")
    expect(sent[0]!.expires.toISOString()).toBe("2030-01-02T00:00:00.000Z")
    vi.setSystemTime(new Date("2030-01-01T23:59:59Z"))
    expect(errorOf(await followLink(config, new CookieJar(), early))).toBeNull()
    vi.setSystemTime(new Date("2030-01-02T00:00:01Z"))
    expect(errorOf(await followLink(config, new CookieJar(), late))).toBe("Verification")
  })

  it("honours a provider's maxAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { provider, sent } = recordingEmail({ maxAge: 600 })
    const { config } = emailConfig([provider])
    const link = await linkFor(config, sent)
    expect(sent[0]!.expires.toISOString()).toBe("2030-01-01T00:10:00.000Z")
    vi.setSystemTime(new Date("2030-01-01T00:10:01Z"))
    expect(errorOf(await followLink(config, new CookieJar(), link))).toBe("Verification")
  })

  it("refuses a link whose email or token was changed, or that lacks them", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    const link = new URL(await linkFor(config, sent))
    const otherEmail = new URL(link)
    otherEmail.searchParams.set("email", "mallory@example.com")
    expect(errorOf(await followLink(config, new CookieJar(), otherEmail.href))).toBe("Verification")
    const otherToken = new URL(link)
    otherToken.searchParams.set("token", `${link.searchParams.get("token")}x`)
    expect(errorOf(await followLink(config, new CookieJar(), otherToken.href))).toBe("Verification")
    expect(errorOf(await openLink(config, new CookieJar(), "/auth/callback/email"))).toBe("Verification")
    expect(errorOf(await openLink(config, new CookieJar(), "/auth/callback/email?email=ada%40example.com"))).toBe("Verification")
    expect(adapter.tables.sessions.size).toBe(0)
    // None of that used the real link up.
    expect(errorOf(await followLink(config, new CookieJar(), link.href))).toBeNull()
  })

  it("cannot be forged cross-site: a POST without the page's CSRF cookie is refused and the link stays usable", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    const link = await linkFor(config, sent)
    const { fields } = confirmationForm(await (await openLink(config, new CookieJar(), link)).text())
    // The attacker's page posts the fields of a link to its own account from the victim's browser.
    const victim = new CookieJar()
    const forged = await send(config, "/auth/callback/email", { jar: victim, form: { ...fields, csrfToken: "0".repeat(64) } })
    expect(errorOf(forged)).toBe("MissingCSRF")
    const noToken = await send(config, "/auth/callback/email", { jar: victim, form: { token: fields.token!, email: fields.email! } })
    expect(errorOf(noToken)).toBe("MissingCSRF")
    expect(await sessionOf(config, victim)).toBeNull()
    expect(adapter.tables.verificationTokens.size).toBe(1)
  })

  it("concurrent confirmations of one link make exactly one session", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter } = emailConfig([provider])
    // Every adapter call waits a few milliseconds, so the confirmations interleave at each step.
    let tick = 0
    const jittery = interceptAdapter(adapter, () => new Promise((resolve) => setTimeout(resolve, tick++ % 4)))
    const racing: AuthConfig = { ...config, adapter: jittery }
    const link = await linkFor(racing, sent)
    const jars = Array.from({ length: 5 }, () => new CookieJar())
    const pages = await Promise.all(jars.map((jar) => openLink(racing, jar, link)))
    const results = await Promise.all(
      jars.map(async (jar, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 3))
        return confirmPage(racing, jar, pages[i]!)
      }),
    )
    expect(results.map(errorOf).sort()).toEqual(["Verification", "Verification", "Verification", "Verification", null])
    expect(adapter.tables.sessions.size).toBe(1)
    expect(adapter.tables.users.size).toBe(1)
  })

  it("keeps working for links made before a secret rotation", async () => {
    const { provider, sent } = recordingEmail()
    const before = emailConfig([provider], { secret: "old-secret-0123456789-abcdefghijklmnopqrs" })
    const link = await linkFor(before.config, sent)
    const after: AuthConfig = { ...before.config, secret: ["new-secret-0123456789-abcdefghijklmnopqrs", "old-secret-0123456789-abcdefghijklmnopqrs"] }
    const jar = new CookieJar()
    expect(errorOf(await followLink(after, jar, link))).toBeNull()
    expect((await sessionOf(after, jar))?.user?.email).toBe("ada@example.com")
  })

  it("returns to the callback URL of the request, and never to another site", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider])
    await requestLink(config, new CookieJar(), "ada@example.com", { callbackUrl: "/settings?tab=1" })
    expect((await followLink(config, new CookieJar(), lastLink(sent))).headers.get("location")).toBe(`${origin}/settings?tab=1`)
    await requestLink(config, new CookieJar(), "ada@example.com", { callbackUrl: "https://evil.example/" })
    expect(new URL(lastLink(sent)).searchParams.get("callbackUrl")).toBe(`${origin}/`)
  })
})
