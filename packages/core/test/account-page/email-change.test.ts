/**
 * The account page's address change: a link to the new address (after a recent sign-in), its
 * one-click page, and what following it does; and the attacks on it: a replayed, expired or
 * tampered link, a link followed while signed in as someone else, a stale session asking, and a
 * visitor probing which addresses have accounts.
 */
import { requestEmailChange } from "@sesame/core"
import Email from "@sesame/core/providers/email"
import { afterEach, describe, expect, it, vi } from "vitest"
import { SoftAuthenticator } from "@sesame/testing"
import { CookieJar, csrfToken, origin, request, send } from "../helpers.js"
import { register } from "../webauthn/harness.js"
import { accountUrl, app, back, changeLink, later, page, post, section, signedIn, stepUp, user, type App } from "./harness.js"

afterEach(() => {
  vi.useRealTimers()
})

/** Follows `link` in `jar`: its page, then its one button. */
async function follow(a: App, jar: CookieJar, link: string) {
  const shown = await send(a.config, link, { jar })
  const html = await shown.text()
  const url = new URL(link)
  const form = Object.fromEntries(["token", "email", "user"].map((name) => [name, url.searchParams.get(name) ?? ""]))
  const response = await send(a.config, "/auth/account/email-confirm", { jar, form: { csrfToken: await csrfToken(a.config, jar), ...form } })
  return { shown, html, response, location: response.headers.get("location") ?? "", body: response.status === 200 || response.status === 400 ? await response.text() : "" }
}

const signedInAs = async (a: App, jar: CookieJar) => ((await (await send(a.config, "/auth/session", { jar })).json()) as { user?: { email?: string } } | null)?.user?.email

describe("changing the email address", () => {
  it("sends a link to the new address; following it changes the address, verified, ends the other sessions and tells the old address", async () => {
    const a = app()
    const ada = await user(a)
    const jar = await signedIn(a)
    const other = await signedIn(a)
    const asked = await post(a, jar, "email", { email: "Ada.New@Example.com" })
    expect(asked.location).toBe(back("email", { notice: "email-sent" }))
    expect(section(await page(a, jar, new URL(asked.location).search), "email")).toContain("a link is on its way")

    expect(a.mails.map((m) => [m.kind, m.to])).toEqual([["change-email", "ada.new@example.com"]])
    const link = changeLink(a)
    expect(link.startsWith(`${origin}/auth/account/email-confirm?`)).toBe(true)
    expect(a.mails[0]!.message.text).toContain(link)
    // Hashed at rest: the adapter never holds the link's token.
    const token = new URL(link).searchParams.get("token")!
    expect(JSON.stringify([...a.adapter.tables.verificationTokens.values()])).not.toContain(token)

    // Nothing changes until the link is followed, and its page changes nothing by itself.
    const followed = await follow(a, jar, link)
    expect(followed.shown.status).toBe(200)
    expect(followed.html).toContain("Make ada.new@example.com the email address of your account")
    expect(followed.location).toBe(back("email", { notice: "email-changed" }))

    const stored = await a.adapter.getUser(ada.id)
    expect(stored?.email).toBe("ada.new@example.com")
    expect(stored?.emailVerified).toBeInstanceOf(Date)
    expect(await signedInAs(a, jar)).toBe("ada.new@example.com")
    expect(await signedInAs(a, other)).toBeUndefined()
    expect(a.mails.map((m) => [m.kind, m.to])).toEqual([
      ["change-email", "ada.new@example.com"],
      ["email-changed", "ada@example.com"],
    ])
    expect(a.mails[1]!.url).toBe(accountUrl)
  })

  it("works signed out too (the link is the proof), and then only once", async () => {
    const a = app()
    const ada = await user(a)
    await post(a, await signedIn(a), "email", { email: "new@example.com" })
    const link = changeLink(a)
    const stranger = new CookieJar()
    expect((await follow(a, stranger, link)).location).toBe(back("email", { notice: "email-changed" }))
    expect((await a.adapter.getUser(ada.id))?.email).toBe("new@example.com")

    const replay = await follow(a, stranger, link)
    expect(replay.response.status).toBe(400)
    expect(replay.body).toContain("This link is no longer valid")
  })

  it("refuses an expired link", async () => {
    const a = app()
    const ada = await user(a)
    await post(a, await signedIn(a), "email", { email: "new@example.com" })
    const link = changeLink(a)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later(61))
    const expired = await follow(a, new CookieJar(), link)
    expect(expired.response.status).toBe(400)
    expect(expired.body).toContain("This link is no longer valid")
    expect((await a.adapter.getUser(ada.id))?.email).toBe("ada@example.com")
  })

  it("refuses a link followed while signed in as someone else, and leaves it usable by its owner", async () => {
    const a = app()
    const ada = await user(a)
    await user(a, "eve@example.com")
    await post(a, await signedIn(a), "email", { email: "new@example.com" })
    const link = changeLink(a)
    const eve = await signedIn(a, "eve@example.com")
    const refused = await follow(a, eve, link)
    expect(refused.response.status).toBe(400)
    expect(refused.body).toContain("You are signed in as someone else")
    expect(await a.adapter.getUserByEmail("eve@example.com")).not.toBeNull()
    expect((await a.adapter.getUser(ada.id))?.email).toBe("ada@example.com")
    expect((await follow(a, new CookieJar(), link)).location).toBe(back("email", { notice: "email-changed" }))
  })

  it("refuses a link whose user, address or token was changed", async () => {
    const a = app()
    const ada = await user(a)
    const eve = await user(a, "eve@example.com")
    await post(a, await signedIn(a), "email", { email: "new@example.com" })
    const link = new URL(changeLink(a))
    for (const [name, value] of [
      ["user", eve.id],
      ["email", "other@example.com"],
      ["token", "A".repeat(43)],
    ] as const) {
      const tampered = new URL(link)
      tampered.searchParams.set(name, value)
      const result = await follow(a, new CookieJar(), tampered.href)
      expect(result.response.status, name).toBe(400)
    }
    expect((await a.adapter.getUser(ada.id))?.email).toBe("ada@example.com")
    expect((await a.adapter.getUser(eve.id))?.email).toBe("eve@example.com")
    // A link without its parameters is a page that says so.
    const bare = await send(a.config, "/auth/account/email-confirm")
    expect(bare.status).toBe(400)
  })

  it("answers an address that has an account exactly as any other, and sends nothing to it", async () => {
    const a = app()
    await user(a)
    await user(a, "taken@example.com")
    const jar = await signedIn(a)
    const taken = await post(a, jar, "email", { email: "taken@example.com" })
    const free = await post(a, jar, "email", { email: "free@example.com" })
    expect(taken.location).toBe(free.location)
    expect(taken.location).toBe(back("email", { notice: "email-sent" }))
    expect(a.mails.map((m) => m.to)).toEqual(["free@example.com"])
    expect([...a.adapter.tables.verificationTokens.values()].map((t) => t.identifier)).toEqual(["free@example.com"])
  })

  it("lets a user ask five times an hour, taken addresses counted as any other", async () => {
    const a = app()
    await user(a)
    await user(a, "taken@example.com")
    const jar = await signedIn(a)
    for (const email of ["one@example.com", "taken@example.com", "three@example.com", "taken@example.com", "five@example.com"]) {
      expect((await post(a, jar, "email", { email })).location, email).toBe(back("email", { notice: "email-sent" }))
    }
    expect((await post(a, jar, "email", { email: "six@example.com" })).location).toBe(back("email", { error: "TooManyRequests" }))
    expect(section(await page(a, jar, "?error=TooManyRequests&in=email"), "email")).toContain("Too many attempts. Try again later.")
    expect(a.mails.map((m) => m.to)).toEqual(["one@example.com", "three@example.com", "five@example.com"])
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later(61))
    // An hour later the count starts again (the sign-in is stale by then: the step-up, not the limit).
    expect((await post(a, jar, "email", { email: "six@example.com" })).location).toBe(stepUp("email"))
  })

  it("refuses the address once another account took it, between the link and its use", async () => {
    const a = app()
    const ada = await user(a)
    await post(a, await signedIn(a), "email", { email: "new@example.com" })
    await user(a, "new@example.com")
    const result = await follow(a, new CookieJar(), changeLink(a))
    expect(result.body).toContain("belongs to another account")
    expect((await a.adapter.getUser(ada.id))?.email).toBe("ada@example.com")
  })

  it("sends a stale session through the step-up, and sends nothing", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect((await post(a, jar, "email", { email: "new@example.com" })).location).toBe(stepUp("email"))
    expect(a.mails).toEqual([])
  })

  it("refuses a malformed address and the current one", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    expect((await post(a, jar, "email", { email: "not an address" })).location).toBe(back("email", { error: "InvalidEmail" }))
    expect((await post(a, jar, "email", { email: "ADA@example.com" })).location).toBe(back("email", { error: "SameEmail" }))
    expect(section(await page(a, jar, "?error=SameEmail&in=email"), "email")).toContain("That is already your email address.")
    expect(a.mails).toEqual([])
  })

  it("goes through the email provider's sender when there is no password provider, with the kind", async () => {
    const sent: { kind?: string; identifier: string; url: string }[] = []
    const a = app({ providers: [Email({ sendVerificationRequest: ({ kind, identifier, url }) => void sent.push({ kind, identifier, url }) })] })
    await user(a, "ada@example.com", false)
    const jar = new CookieJar()
    await send(a.config, "/auth/signin/email", { jar, form: { csrfToken: await csrfToken(a.config, jar), email: "ada@example.com" } })
    const signInLink = sent.pop()!
    expect(signInLink.kind).toBeUndefined()
    const confirmed = await send(a.config, signInLink.url, { jar })
    // The sign-in link's page (one click) or the callback itself: follow to a session.
    if (confirmed.status === 200) {
      const form = Object.fromEntries(new URL(signInLink.url).searchParams)
      await send(a.config, new URL(signInLink.url).pathname, { jar, form: { ...form, csrfToken: await csrfToken(a.config, jar) } })
    }
    expect(await signedInAs(a, jar)).toBe("ada@example.com")
    await post(a, jar, "email", { email: "new@example.com" })
    expect(sent.map((m) => [m.kind, m.identifier])).toEqual([["change-email", "new@example.com"]])
    await follow(a, jar, sent[0]!.url)
    expect(sent.map((m) => [m.kind, m.identifier])).toEqual([
      ["change-email", "new@example.com"],
      ["email-changed", "ada@example.com"],
    ])
  })
})

describe("a user whose address nobody proved", () => {
  it("is proven by the change: no later proof of the new address sets the user aside", async () => {
    const a = app()
    const jar = new CookieJar()
    const { response } = await register(a.config, jar, new SoftAuthenticator(), "pat@example.com")
    expect(response.status).toBe(302)
    const pat = (await a.adapter.getUserByEmail("pat@example.com"))!
    const marks = () => [...a.adapter.tables.verificationTokens.values()].filter((t) => t.identifier === `sesame:unproven:${pat.id}`)
    expect(marks()).toHaveLength(1)
    await post(a, jar, "email", { email: "pat.new@example.com" })
    expect((await follow(a, jar, changeLink(a))).location).toBe(back("email", { notice: "email-changed" }))
    expect(marks()).toEqual([])
    expect((await a.adapter.getUser(pat.id))?.emailVerified).toBeInstanceOf(Date)
  })
})

describe("requestEmailChange (the server function)", () => {
  it("asks for the signed-in user of the request, with the same rules", async () => {
    const a = app()
    await user(a)
    const jar = await signedIn(a)
    expect(await requestEmailChange(request("/", { jar }), a.config, { email: "fn@example.com" })).toEqual({ requested: true })
    expect(a.mails.map((m) => m.to)).toEqual(["fn@example.com"])
    expect(await requestEmailChange(request("/"), a.config, { email: "fn@example.com" })).toEqual({ requested: false, reason: "NotSignedIn" })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect(await requestEmailChange(request("/", { jar }), a.config, { email: "fn2@example.com" })).toEqual({ requested: false, reason: "SignInTooOld" })
  })
})
