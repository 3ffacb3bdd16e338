/**
 * The browser scenario both SolidStart versions must pass: the example app, built for production
 * and started on 127.0.0.1, driven in Debian's Chromium, signing in with credentials and through a
 * real OpenID Provider (@sesame/dev-idp, an oidc-provider), on both protected pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { launchBrowser, saveScreenshot } from "@sesame/testing"
import { freePort, prepare, startApp, type RunningApp, type Variant } from "./app.js"

const clientId = "solid-app"
const clientSecret = "solid-app-client-secret-0123456789abcdef"
const demo = { email: "demo@example.com", password: "sesame-demo", name: "Demo User" }
/** Builds on a cold npm cache take a few minutes; on a warm one well under one. */
const prepareTimeout = 10 * 60_000
/** Each browser scenario takes a few seconds; the margin is for a machine busy building. */
const stepTimeout = 60_000

/**
 * Polls until the assertion holds, for up to 10 s: the other version's build may be using both
 * cores at the same moment, and the default of one second is too tight for that.
 */
function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 10_000 })
}

export interface ScenarioOptions {
  /**
   * How the app learns its public origin: `AUTH_URL`, or `AUTH_TRUST_HOST` (the Host header).
   * The two variants use one each, so both paths of the environment inference run.
   */
  origin: "AUTH_URL" | "AUTH_TRUST_HOST"
}

export function describeApp(variant: Variant, options: ScenarioOptions): void {
  const suite = "solid-start"
  const tag = variant.label.replace("SolidStart ", "v")
  describe(`examples/solid-start on ${variant.label}, in Chromium`, () => {
    let idp: DevIdp | undefined
    let app: RunningApp | undefined
    let browser: Browser | undefined
    const contexts: BrowserContext[] = []
    const pageErrors: string[] = []

    beforeAll(async () => {
      prepare(variant)
      const port = await freePort()
      const origin = `http://127.0.0.1:${port}`
      idp = await startDevIdp({
        interactive: true,
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${origin}/api/auth/callback/dev-idp`] }],
        accounts: [
          { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
          { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
        ],
      })
      app = await startApp(variant, port, {
        AUTH_SECRET: "solid-start-e2e-secret-0123456789-abcdefghijklmnop",
        ...(options.origin === "AUTH_URL" ? { AUTH_URL: origin } : { AUTH_TRUST_HOST: "true" }),
        AUTH_DEV_IDP_ISSUER: idp.issuer,
        AUTH_DEV_IDP_ID: clientId,
        AUTH_DEV_IDP_SECRET: clientSecret,
      })
      browser = await launchBrowser()
    }, prepareTimeout)

    afterAll(async () => {
      for (const context of contexts) await context.close()
      await browser?.close()
      await app?.stop()
      await idp?.close()
    })

    /** A fresh browser profile whose pages report uncaught errors (hydration failures among them). */
    async function newPage(context?: BrowserContext): Promise<Page> {
      let ctx = context
      if (!ctx) {
        ctx = await browser!.newContext()
        // Fail a step with Playwright's own message, well before the test's time runs out.
        ctx.setDefaultTimeout(10_000)
        contexts.push(ctx)
      }
      const page = await ctx.newPage()
      page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`))
      return page
    }

    const url = (path: string) => `${app!.origin}${path}`
    const status = (page: Page) => page.getByTestId("session-status")

    /** Waits until the app is interactive: the header's session is fetched once hydration is done. */
    async function hydrated(page: Page): Promise<void> {
      await eventually(() => status(page).textContent()).not.toContain("Loading")
    }

    /** Loads `path` and expects to land on the sign-in page. */
    async function expectSentToSignIn(page: Page, path: string): Promise<void> {
      await page.goto(url(path))
      expect(new URL(page.url()).pathname, path).toBe("/signin")
    }

    /** Signs out with the header's button; then both protected pages send the visitor away. */
    async function signOutAndCheck(page: Page): Promise<void> {
      await page.getByRole("button", { name: "Sign out" }).click()
      await page.waitForURL(url("/"))
      await eventually(() => status(page).textContent()).toContain("Not signed in")
      for (const path of ["/account", "/dashboard"]) await expectSentToSignIn(page, path)
    }

    async function signInWithCredentials(page: Page, password = demo.password): Promise<void> {
      await page.goto(url("/signin"))
      await hydrated(page)
      await page.getByLabel("Email").fill(demo.email)
      await page.getByLabel("Password").fill(password)
      await page.getByRole("button", { name: "Sign in", exact: true }).click()
    }

    it("sends a signed-out visitor from both protected pages to /signin, on page loads and in-app navigation", async () => {
      const page = await newPage()
      await expectSentToSignIn(page, "/account")
      await expectSentToSignIn(page, "/dashboard")
      await eventually(() => status(page).textContent()).toContain("Not signed in")
      await saveScreenshot(page, suite, `${tag}-signin`)

      await page.goto(url("/"))
      await eventually(() => status(page).textContent()).toContain("Not signed in")
      // In-app navigation: no document request; the server function and the page's check redirect.
      await page.getByRole("link", { name: "Account (server-protected)" }).click()
      await page.waitForURL(url("/signin"))
      await page.getByRole("link", { name: "Dashboard (middleware-protected)" }).click()
      await page.waitForURL(url("/signin"))

      const direct = await fetch(url("/dashboard"), { redirect: "manual" })
      expect([direct.status, direct.headers.get("location")]).toEqual([302, "/signin"])
      // Solid Router renders /dashboard for these spellings too (fixed segments compare lowercased,
      // a trailing slash is dropped): the middleware guards them all.
      for (const spelling of ["/DASHBOARD", "/Dashboard/"]) {
        const other = await fetch(url(spelling), { redirect: "manual" })
        expect([spelling, other.status, other.headers.get("location")]).toEqual([spelling, 302, "/signin"])
      }
      const server = await fetch(url("/account"), { redirect: "manual" })
      expect([server.status, server.headers.get("location")]).toEqual([302, "/signin"])
      expect(pageErrors).toEqual([])
    }, stepTimeout)

    it("signs in with credentials, shows both protected pages, and signs out", async () => {
      const page = await newPage()
      await signInWithCredentials(page, "wrong password")
      await eventually(() => page.getByRole("alert").textContent()).toContain("Sign in failed")
      expect(new URL(page.url()).pathname).toBe("/signin")

      await signInWithCredentials(page)
      await page.waitForURL(url("/account"))
      await eventually(() => page.getByTestId("account").textContent()).toContain(`Signed in as ${demo.name} (${demo.email})`)
      await eventually(() => status(page).textContent()).toContain(`Signed in as ${demo.name}`)
      await saveScreenshot(page, suite, `${tag}-account-credentials`)

      // A full page load: the middleware lets the request through.
      await page.goto(url("/dashboard"))
      await eventually(() => page.getByTestId("dashboard").textContent()).toContain(`Welcome, ${demo.name}`)
      await saveScreenshot(page, suite, `${tag}-dashboard-credentials`)
      // In-app navigation: the account's server function runs with the browser's cookies.
      await page.getByRole("link", { name: "Account (server-protected)" }).click()
      await eventually(() => page.getByTestId("account").textContent()).toContain(demo.email)

      await signOutAndCheck(page)
      expect(pageErrors).toEqual([])
    }, stepTimeout)

    it("signs in through the OpenID Provider and shows both protected pages", async () => {
      const page = await newPage()
      await page.goto(url("/signin"))
      await hydrated(page)
      await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
      await page.waitForURL((u) => u.href.startsWith(idp!.issuer))
      await saveScreenshot(page, suite, `${tag}-dev-idp`)
      await page.getByRole("button", { name: /Ada Lovelace/ }).click()
      await page.waitForURL(url("/account"))
      await eventually(() => page.getByTestId("account").textContent()).toContain("Signed in as Ada Lovelace (ada@example.com)")
      await saveScreenshot(page, suite, `${tag}-account-oidc`)
      await page.goto(url("/dashboard"))
      await eventually(() => page.getByTestId("dashboard").textContent()).toContain("Welcome, Ada Lovelace")

      await signOutAndCheck(page)
      expect(pageErrors).toEqual([])
    }, stepTimeout)

    it("keeps the session in step across tabs and refetches it when the window regains focus", async () => {
      const first = await newPage()
      const context = first.context()
      const second = await newPage(context)
      await second.goto(url("/"))
      await eventually(() => status(second).textContent()).toContain("Not signed in")

      // Signing in in one tab reaches the other without a reload (BroadcastChannel).
      await signInWithCredentials(first)
      await first.waitForURL(url("/account"))
      await eventually(() => status(second).textContent()).toContain(`Signed in as ${demo.name}`)
      // Signing out in the other tab reaches the first.
      await second.getByRole("button", { name: "Sign out" }).click()
      await eventually(() => status(first).textContent()).toContain("Not signed in")

      // A session that ends elsewhere (here: the cookies are gone) shows once the window has focus.
      await signInWithCredentials(first)
      await first.waitForURL(url("/account"))
      await second.goto(url("/"))
      await eventually(() => status(second).textContent()).toContain(`Signed in as ${demo.name}`)
      await context.clearCookies()
      await second.evaluate(() => window.dispatchEvent(new Event("focus")))
      await eventually(() => status(second).textContent()).toContain("Not signed in")
      expect(pageErrors).toEqual([])
    }, stepTimeout)
  })
}
