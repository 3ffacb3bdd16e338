/**
 * Email sign-in in a real browser (Debian Chromium): the sign-in form, the mail over real SMTP, a
 * link scanner opening the link first, and a person confirming it with one key press. The
 * confirmation page is checked with axe and for CSP violations, and a screenshot is kept under
 * test-artifacts/screenshots/email/.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { memoryRateLimitStore } from "@sesame/core/providers/email"
import Nodemailer from "@sesame/core/providers/nodemailer"
import { startMailbox, type Mailbox } from "@sesame/dev-mailbox"
import { launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import { secret } from "../helpers.js"

let browser: Browser
let mailbox: Mailbox
let server: TestServer
const adapter = MemoryAdapter()

beforeAll(async () => {
  mailbox = await startMailbox()
  const config = {
    secret,
    trustHost: true,
    adapter,
    providers: [Nodemailer({ server: mailbox.url, from: "Sesame <no-reply@example.com>", rateLimit: { store: memoryRateLimitStore() } })],
  }
  server = await serve((request) => Auth(request, config))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await mailbox?.close()
})

describe("email sign-in in a browser", () => {
  it("a scanner opening the link first changes nothing; the person confirms with Enter and is signed in", async () => {
    const person = await browser.newContext({ locale: "en-US" })
    const page = await person.newPage()
    const csp = await watchCsp(page)
    await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/auth/session`)}`)
    await page.fill('input[name="email"]', "ada@example.com")
    await Promise.all([page.waitForURL(/\/auth\/verify-request\?provider=nodemailer&type=email$/), page.click('button:has-text("Sign in with Email")')])
    const message = await mailbox.waitFor("ada@example.com")
    const link = /https?:\/\/\S+/.exec(message.text)![0]

    // The mail as a client shows it (no network, no script), kept as a screenshot.
    const mail = await browser.newPage({ javaScriptEnabled: false })
    await mail.setContent(message.html)
    expect(await mail.getAttribute("a", "href")).toBe(link)
    await saveScreenshot(mail, "email", "sign-in mail")
    await mail.close()

    // A mail scanner: another browser, JavaScript on, opens the link and leaves.
    const scanner = await browser.newContext()
    const scanned = await (await scanner.newPage()).goto(link)
    expect(scanned?.status()).toBe(200)
    await scanner.close()
    expect(adapter.tables.verificationTokens.size).toBe(1)

    await page.goto(link)
    expect(await page.textContent("h1")).toBe("Finish signing in")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign in")
    const axe = await runAxe(page)
    expect([...axe.byImpact.critical, ...axe.byImpact.serious].map((v) => v.id)).toEqual([])
    expect(await csp.violations()).toEqual([])
    await saveScreenshot(page, "email", "confirm link")

    await Promise.all([page.waitForURL(`${server.origin}/auth/session`), page.keyboard.press("Enter")])
    expect(JSON.parse(await page.innerText("body"))).toMatchObject({ user: { email: "ada@example.com" } })
    expect(adapter.tables.verificationTokens.size).toBe(0)
    await person.close()
  })
})
