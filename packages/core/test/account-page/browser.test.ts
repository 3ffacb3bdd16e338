/**
 * The account page in real Chromium, section by section, as a person uses it: another browser's
 * session signed out, a passkey added and removed with a virtual authenticator (DevTools
 * protocol), the dev IdP unlinked and linked again, the email address changed through the mailbox
 * (a real SMTP server), an authenticator app turned on with codes computed from the secret the
 * page shows, and the account deleted. Each page passes axe (no serious or critical finding) and
 * causes no CSP violation, in the light and the dark scheme; the profile is saved with the
 * keyboard alone; without JavaScript the forms still work and the passkey button gives way to a
 * sentence.
 *
 * WebAuthn needs an RP ID that is a domain: the server listens on 127.0.0.1 and the browser uses
 * it as `localhost` (see `test/webauthn/browser.test.ts`).
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"
import { smtpSender } from "@sesame/core/providers/nodemailer"
import { argon2id } from "@sesame/core/password"
import { startMailbox, type Mailbox } from "@sesame/dev-mailbox"
import type { DevIdp } from "@sesame/dev-idp"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type CspWatcher, type TestServer } from "@sesame/testing"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { storePassword } from "../../src/password/storage.js"
import { secret } from "../helpers.js"
import { clientSecret, startIdp } from "../oauth/harness.js"
import { AuthenticatorApp } from "../two-factor/harness.js"

const suite = "account-page"
const password = "correct horse battery"
const hasher = argon2id({ memoryCost: 64, timeCost: 1 })

let browser: Browser
let server: TestServer
let mailbox: Mailbox
let idp: DevIdp
let adapter: MemoryAdapterInstance
let config: AuthConfig
/** The app as the browser sees it: `http://localhost:<port>`. */
let app: string
const contexts: BrowserContext[] = []

const landing = (title: string) =>
  new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  })

beforeAll(async () => {
  adapter = MemoryAdapter()
  ;[browser, mailbox, server] = await Promise.all([
    launchBrowser(),
    startMailbox(),
    serve((request) => {
      const { pathname } = new URL(request.url)
      if (pathname.startsWith("/auth/")) return Auth(request, config)
      return landing("Home")
    }),
  ])
  app = server.origin.replace("127.0.0.1", "localhost")
  idp = await startIdp({ clients: [{ client_id: "dev", client_secret: clientSecret, redirect_uris: [`${app}/auth/callback/dev`] }], accounts: [{ id: "ada", email: "ada@example.com", name: "Ada Lovelace" }] })
  config = {
    secret,
    trustHost: true,
    adapter,
    providers: [
      Password({ sendEmail: smtpSender({ server: mailbox.url, from: "Sesame <no-reply@example.com>" }), hasher }),
      Passkey(),
      { id: "dev", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "dev", clientSecret, checks: ["pkce", "nonce"] },
    ],
    experimental: { enableWebAuthn: true },
    logger: { error: (e) => console.error(e), warn: () => {} },
  }
}, 60_000)

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()))
  await browser?.close()
  await server?.close()
  await mailbox?.close()
  await idp?.close()
})

async function newPage(options: { javaScriptEnabled?: boolean; colorScheme?: "light" | "dark" } = {}): Promise<{ page: Page; csp: CspWatcher }> {
  const context = await browser.newContext({ locale: "en-US", javaScriptEnabled: options.javaScriptEnabled ?? true, colorScheme: options.colorScheme ?? "light" })
  contexts.push(context)
  const page = await context.newPage()
  return { page, csp: await watchCsp(page) }
}

const accountUrl = () => `${app}/auth/account`

/** A password user, made directly in the store. */
async function addUser(email: string): Promise<void> {
  const user = await adapter.createUser({ id: crypto.randomUUID(), email, name: "Ada", emailVerified: new Date() })
  await storePassword(adapter, { userId: user.id, hash: await hasher.hash(password), updatedAt: new Date() })
}

/** The sign-in page's password form; lands on `to`. */
async function signIn(page: Page, email: string, to = accountUrl()): Promise<void> {
  await page.goto(`${app}/auth/signin?callbackUrl=${encodeURIComponent(to)}`)
  await page.getByLabel("Email address").fill(email)
  await page.getByLabel("Password").fill(password)
  await Promise.all([page.waitForURL(to), page.getByLabel("Password").press("Enter")])
}

/** Runs `action` (a click that submits or follows) and waits for the page at `url`. */
async function lands(page: Page, url: string | RegExp, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForURL(url), action()])
}

/** No serious or critical axe finding, and no CSP violation so far. */
async function clean(page: Page, csp: CspWatcher, label: string): Promise<void> {
  const axe = await runAxe(page)
  const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
  expect(blocking, `${label}: ${describeViolations(blocking)}`).toEqual([])
  expect(await csp.violations(), label).toEqual([])
  await saveScreenshot(page, suite, label)
}

const sectionText = (page: Page, id: string) => page.locator(`section#${id}`).innerText()

async function sessionEmail(page: Page): Promise<string | null> {
  const session = (await (await page.request.get(`${app}/auth/session`)).json()) as { user?: { email?: string } } | null
  return session?.user?.email ?? null
}

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return { cdp, authenticatorId }
}

describe("the account page in Chromium", () => {
  it("every section, as a person uses it; axe-clean and within the CSP on each page", { timeout: 120_000 }, async () => {
    await addUser("ada@example.com")
    const { page, csp } = await newPage()
    const other = await newPage()
    await signIn(other.page, "ada@example.com", `${app}/`)
    await signIn(page, "ada@example.com")
    expect(await page.locator("h1").innerText()).toBe("Your account")
    await clean(page, csp, "account")

    // Sessions: the other browser's, signed out from here.
    const sessions = page.locator("section#sessions")
    expect(await sessions.locator("li").count()).toBe(2)
    await lands(page, /notice=session-revoked/, () => sessions.getByRole("button", { name: "Sign out this session" }).click())
    expect(await sectionText(page, "sessions")).toContain("The session was signed out.")
    expect(await sessionEmail(other.page)).toBeNull()
    expect(await sessionEmail(page)).toBe("ada@example.com")

    // Passkeys: added with the virtual authenticator, then removed.
    const { cdp, authenticatorId } = await virtualAuthenticator(page)
    await page.goto(accountUrl())
    await lands(page, /notice=passkey-added/, () => page.getByRole("button", { name: "Add a passkey" }).click())
    expect(await sectionText(page, "passkeys")).toContain("The passkey was added.")
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    expect(adapter.tables.authenticators.size).toBe(1)
    await clean(page, csp, "account-passkey-added")
    await lands(page, /notice=passkey-removed/, () => page.getByRole("button", { name: "Remove Passkey" }).click())
    expect(await sectionText(page, "passkeys")).toContain("You have no passkeys yet.")
    expect(adapter.tables.authenticators.size).toBe(0)

    // Linked accounts: the dev IdP linked from the page, unlinked, and linked again.
    await lands(page, /#linkedAccounts$/, () => page.getByRole("button", { name: "Link Dev IdP" }).click())
    expect(await sectionText(page, "linkedAccounts")).toContain("Dev IdP")
    expect(await adapter.getAccount("ada", "dev")).not.toBeNull()
    await lands(page, /notice=unlinked/, () => page.getByRole("button", { name: "Unlink Dev IdP" }).click())
    expect(await sectionText(page, "linkedAccounts")).toContain("The account was unlinked.")
    expect(await adapter.getAccount("ada", "dev")).toBeNull()
    await lands(page, /#linkedAccounts$/, () => page.getByRole("button", { name: "Link Dev IdP" }).click())
    expect(await page.getByRole("button", { name: "Unlink Dev IdP" }).count()).toBe(1)
    expect(await sessionEmail(page)).toBe("ada@example.com")

    // The email address, changed through the mailbox.
    await page.getByLabel("New email address").fill("ada.new@example.com")
    await lands(page, /notice=email-sent/, () => page.getByRole("button", { name: "Send a confirmation link" }).click())
    expect(await sectionText(page, "email")).toContain("Check your inbox and open the link")
    const mail = await mailbox.waitFor("ada.new@example.com", { timeout: 10_000 })
    expect(mail.subject).toMatch(/^Confirm your new email address for localhost/)
    const link = /http:\/\/localhost:\d+\/auth\/account\/email-confirm\?\S+/.exec(mail.text)![0]
    await page.goto(link)
    expect(await page.locator("h1").innerText()).toBe("Confirm your new email address")
    await clean(page, csp, "email-confirm")
    await lands(page, /notice=email-changed/, () => page.getByRole("button", { name: "Change my email address" }).click())
    expect(await sectionText(page, "email")).toContain("Your address is ada.new@example.com.")
    expect(await sessionEmail(page)).toBe("ada.new@example.com")
    const notice = await mailbox.waitFor("ada@example.com", { timeout: 10_000 })
    expect(notice.subject).toMatch(/^Your email address on localhost:\d+ was changed/)

    // Two-factor sign-in: an authenticator app turned on, its code computed from the page's secret.
    await lands(page, `${app}/auth/two-factor/setup`, () => page.getByRole("link", { name: "Turn on two-factor sign-in" }).click())
    const key = (await page.locator("#twofactor-secret").innerText()).replace(/\s+/g, "")
    const authenticator = new AuthenticatorApp(decodeBase32IgnorePadding(key))
    await page.getByLabel("Code from the app").fill(authenticator.code())
    await lands(page, `${app}/auth/two-factor/setup`, () => page.locator("#twofactor-setup-code").press("Enter"))
    expect(await page.locator("h1").innerText()).toBe("Save your recovery codes")
    await page.goto(accountUrl())
    expect(await sectionText(page, "twoFactor")).toContain("On, with an authenticator app. Recovery codes left: 10.")
    await clean(page, csp, "account-two-factor-on")

    // Deleting the account: the box ticked, then the button; the browser is signed out.
    await page.getByLabel("I understand that my account will be deleted for good.").check()
    await lands(page, `${app}/`, () => page.getByRole("button", { name: "Delete my account" }).click())
    expect(await sessionEmail(page)).toBeNull()
    expect(adapter.tables.users.size).toBe(0)
    expect(await csp.violations()).toEqual([])
  })

  it("in the dark scheme, with the keyboard alone: Tab reaches the name field, Enter saves the profile", { timeout: 60_000 }, async () => {
    await addUser("grace@example.com")
    const { page, csp } = await newPage({ colorScheme: "dark" })
    await signIn(page, "grace@example.com")
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(18, 20, 25)")
    await clean(page, csp, "account-dark")
    let reached = false
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press("Tab")
      reached = await page.evaluate(() => document.activeElement?.id === "account-name")
    }
    expect(reached, "Tab reaches the name field").toBe(true)
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid")
    await page.keyboard.press("ControlOrMeta+A")
    await page.keyboard.type("Grace Hopper")
    await lands(page, /notice=profile/, () => page.keyboard.press("Enter"))
    expect(await sectionText(page, "profile")).toContain("Your profile was saved.")
    expect((await adapter.getUserByEmail("grace@example.com"))?.name).toBe("Grace Hopper")
  })

  it("without JavaScript: every form still works, and the passkey button gives way to a sentence", { timeout: 60_000 }, async () => {
    await addUser("linus@example.com")
    const { page } = await newPage({ javaScriptEnabled: false })
    await signIn(page, "linus@example.com")
    expect(await page.getByRole("button", { name: "Add a passkey" }).count()).toBe(0)
    expect(await sectionText(page, "passkeys")).toContain("Adding a passkey needs JavaScript")
    await page.getByLabel("Name", { exact: true }).fill("Linus")
    await lands(page, /notice=profile/, () => page.getByRole("button", { name: "Save profile" }).click())
    expect((await adapter.getUserByEmail("linus@example.com"))?.name).toBe("Linus")
    // No script runs here, axe's neither: the page with JavaScript is checked above.
    await saveScreenshot(page, suite, "account-no-javascript")
  })
})
