/**
 * Email sign-in end to end over real SMTP: `smtp-server` on 127.0.0.1 (through @sesame/dev-mailbox)
 * receives what the Nodemailer provider sends, the test reads the link out of the parsed message,
 * opens it, confirms it, and gets a session.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { memoryRateLimitStore } from "@sesame/core/providers/email"
import Nodemailer from "@sesame/core/providers/nodemailer"
import { startMailbox, type Mailbox, type MailboxMessage } from "@sesame/dev-mailbox"
import { origin } from "../helpers.js"
import { CookieJar, emailConfig, followLink, openLink, requestLink, sessionOf } from "./helpers.js"

let mailbox: Mailbox

beforeAll(async () => {
  mailbox = await startMailbox({ refuse: ["refused@example.com"] })
})
afterAll(() => mailbox.close())
beforeEach(() => mailbox.clear())

function smtpProvider() {
  return Nodemailer({ server: mailbox.url, from: "Sesame <no-reply@example.com>", rateLimit: { store: memoryRateLimitStore() } })
}

/** The sign-in link of a received message: written out in the text part, and the same in the HTML. */
function linkIn(message: MailboxMessage): string {
  const links = message.text.match(/https?:\/\/\S+/g) ?? []
  expect(links).toHaveLength(1)
  const link = links[0]!
  expect(message.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`)
  return link
}

async function signInOverSmtp(config: AuthConfig, email: string) {
  const jar = new CookieJar()
  const requested = await requestLink(config, jar, email, { provider: "nodemailer", callbackUrl: "/dashboard" })
  expect(requested.status).toBe(302)
  expect(requested.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
  const message = await mailbox.waitFor(email, { timeout: 5000 })
  const link = linkIn(message)
  expect(link.startsWith(`${origin}/auth/callback/nodemailer?`)).toBe(true)
  const confirmed = await followLink(config, jar, link)
  return { jar, message, link, confirmed }
}

describe("email sign-in over SMTP", () => {
  it("database sessions: the mail arrives, its link is confirmed, a verified user and a session exist", async () => {
    const { config, adapter } = emailConfig([smtpProvider()])
    const { jar, message, confirmed } = await signInOverSmtp(config, "ada@example.com")
    expect(message).toMatchObject({ from: '"Sesame" <no-reply@example.com>', to: ["ada@example.com"], subject: "Sign in to localhost:3000" })
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await sessionOf(config, jar))?.user?.email).toBe("ada@example.com")
    const [user] = [...adapter.tables.users.values()]
    expect(user).toMatchObject({ email: "ada@example.com" })
    expect(user!.emailVerified).toBeInstanceOf(Date)
    expect(adapter.tables.sessions.size).toBe(1)
    expect(adapter.tables.verificationTokens.size).toBe(0)
    expect(adapter.tables.accounts.size).toBe(0)
  })

  it("JWT sessions with an adapter for tokens only: the same flow ends in a session cookie, no session row", async () => {
    const { config, adapter } = emailConfig([smtpProvider()], { session: { strategy: "jwt" } })
    const { jar, confirmed } = await signInOverSmtp(config, "grace@example.com")
    expect(confirmed.status).toBe(302)
    expect((await sessionOf(config, jar))?.user?.email).toBe("grace@example.com")
    expect(adapter.tables.sessions.size).toBe(0)
    expect(adapter.tables.verificationTokens.size).toBe(0)
  })

  it("the link also works in another browser than the one that asked for it", async () => {
    const { config } = emailConfig([smtpProvider()])
    const { link } = await (async () => {
      await requestLink(config, new CookieJar(), "lin@example.com", { provider: "nodemailer" })
      return { link: linkIn(await mailbox.waitFor("lin@example.com")) }
    })()
    const phone = new CookieJar()
    expect((await followLink(config, phone, link)).status).toBe(302)
    expect((await sessionOf(config, phone))?.user?.email).toBe("lin@example.com")
  })

  it("the mail has an HTML and a text part, in the visitor's language, with the brand colour and the host", async () => {
    const { config } = emailConfig([smtpProvider()], { theme: { brandColor: "#0a7d33" } })
    await requestLink(config, new CookieJar(), "marie@example.com", { provider: "nodemailer", headers: { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" } })
    const message = await mailbox.waitFor("marie@example.com")
    expect(message.subject).toBe("Connexion à localhost:3000")
    expect(message.text).toContain("Ouvrez ce lien pour vous connecter")
    expect(message.html).toContain('<html lang="fr">')
    expect(message.html).toContain("background:#0a7d33")
    expect(message.html).toMatch(/<a href="[^"]+"[^>]*>Se connecter<\/a>/)
    const link = linkIn(message)
    const page = await (await openLink(config, new CookieJar(), link, { "accept-language": "fr" })).text()
    expect(page).toContain("Terminer la connexion")
  })

  it("a recipient the SMTP server refuses: EmailSignin on the sign-in page, and no token left behind", async () => {
    const { config, adapter, logs } = emailConfig([smtpProvider()])
    const res = await requestLink(config, new CookieJar(), "refused@example.com", { provider: "nodemailer" })
    expect(res.status).toBe(302)
    const log = logs.join("\n")
    expect(log).toContain('The email provider "nodemailer" could not send the sign-in link.')
    expect(log).toContain("responseCode=550")
    expect(log).toContain("550 Mailbox unavailable: refused@example.com")
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("EmailSignin")
    expect(adapter.tables.verificationTokens.size).toBe(0)
    expect(mailbox.messages()).toEqual([])
  })

  it("an SMTP server that is down: EmailSignin, and no token left behind", async () => {
    const down = await startMailbox()
    const server = down.url
    await down.close()
    const provider = Nodemailer({ server, from: "no-reply@example.com", rateLimit: false })
    const { config, adapter, logs } = emailConfig([provider])
    const res = await requestLink(config, new CookieJar(), "ada@example.com", { provider: "nodemailer" })
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
    expect(logs.join("\n")).toMatch(/could not send the sign-in link[\s\S]*ECONNREFUSED/)
    expect(adapter.tables.verificationTokens.size).toBe(0)
  })

  it("the sign-in page shows the EmailSignin message", async () => {
    const { config } = emailConfig([smtpProvider()])
    const jar = new CookieJar()
    const res = await requestLink(config, jar, "refused@example.com", { provider: "nodemailer" })
    const page = await (await openLink(config, jar, res.headers.get("location")!)).text()
    expect(page).toContain("We couldn’t send the sign-in email.")
  })
})
