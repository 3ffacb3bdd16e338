/**
 * Single sign-on in Chromium, served over HTTP with the dev IdP as Acme's identity provider: the
 * sign-in page asks for the work address first, sends Grace to Acme's IdP and back signed in (a
 * member of Acme now); the module's own page says when an address has no SSO. Both pages pass axe
 * with no CSP violation, in English and Japanese.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { Auth } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { oidcConnection, proveDomain, ssoWorld, type World } from "./world.js"

const suite = "sso"
let browser: Browser
let server: TestServer
let idp: DevIdp
let w: World
let acme: { id: string; slug: string }
let ada: Awaited<ReturnType<World["user"]>>

beforeAll(async () => {
  w = ssoWorld()
  ada = await w.user("ada@example.com")
  acme = await w.organization(ada, "Acme")
  await proveDomain(w, acme.id, "acme.test")
  // The app is served on a port of its own; its origin is what the connection's redirect URI names.
  server = await serve((request) => Auth(request, w.config))
  ;({ idp } = await oidcConnection(ada, acme.id, {}, server.origin))
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await idp?.close()
})

async function fresh(locale = "en-US"): Promise<{ context: BrowserContext; page: Page; csp: Awaited<ReturnType<typeof watchCsp>> }> {
  const context = await browser.newContext({ locale })
  const page = await context.newPage()
  return { context, page, csp: await watchCsp(page) }
}

async function expectClean(page: Page, csp: Awaited<ReturnType<typeof watchCsp>>, label: string): Promise<void> {
  const { byImpact } = await runAxe(page)
  expect([...byImpact.critical, ...byImpact.serious], `${label}:\n${describeViolations([...byImpact.critical, ...byImpact.serious])}`).toEqual([])
  expect(await csp.violations(), label).toEqual([])
  await saveScreenshot(page, suite, label)
}

/** A browser signed in as `email` through the sign-in page's credentials form. */
async function signedIn(email: string, options: { locale?: string; colorScheme?: "light" | "dark" } = {}) {
  const context = await browser.newContext({ locale: options.locale ?? "en-US", colorScheme: options.colorScheme ?? "light" })
  const page = await context.newPage()
  const csp = await watchCsp(page)
  await page.goto(`${server.origin}/auth/signin`)
  await page.fill('form[action$="/callback/credentials"] input[name="email"]', email)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/auth/signin")), page.click('form[action$="/callback/credentials"] button')])
  return { context, page, csp }
}

describe("single sign-on in Chromium", () => {
  it("asks for the work address first on the sign-in page, and signs Grace in through Acme's IdP", async () => {
    const { context, page, csp } = await fresh()
    await page.goto(`${server.origin}/auth/signin?callbackUrl=${encodeURIComponent(`${server.origin}/auth/session`)}`)
    await expectClean(page, csp, "signin-with-sso")
    const field = page.locator("#sso-section-email")
    await expect.poll(() => field.isVisible()).toBe(true)
    await field.fill("grace@acme.test")
    await Promise.all([page.waitForURL((url) => url.pathname === "/auth/session"), field.press("Enter")])
    expect(JSON.parse((await page.textContent("body"))!).user).toMatchObject({ email: "grace@acme.test" })
    const members = (await ada.get("organization/members", { organizationId: acme.id })).body as { user: { email: string } }[]
    expect(members.map((m) => m.user.email)).toContain("grace@acme.test")
    await context.close()
  }, 60_000)

  it("says on its own page, in the visitor's language, when an address has no single sign-on", async () => {
    for (const locale of ["en-US", "ja-JP"]) {
      const { context, page, csp } = await fresh(locale)
      await page.goto(`${server.origin}/auth/sso`)
      await expectClean(page, csp, `sso-page-${locale}`)
      await page.fill("#sso-email", "someone@nowhere.test")
      await page.press("#sso-email", "Enter")
      await expect.poll(() => page.locator(".alert").count()).toBe(1)
      expect(await page.getAttribute("#sso-email", "aria-invalid")).toBe("true")
      await expectClean(page, csp, `sso-page-no-connection-${locale}`)
      await context.close()
    }
  }, 60_000)

  it("lets the organization's admin manage its connections on the built-in page, in light and dark, English and Japanese", async () => {
    for (const [locale, colorScheme] of [["en-US", "light"], ["ja-JP", "dark"]] as const) {
      const { context, page, csp } = await signedIn("ada@example.com", { locale, colorScheme })
      await page.goto(`${server.origin}/auth/sso/manage?organizationId=${acme.id}`)
      await expectClean(page, csp, `manage-${locale}-${colorScheme}`)
      await context.close()
    }
    const { context, page, csp } = await signedIn("ada@example.com")
    const manage = `${server.origin}/auth/sso/manage?organizationId=${acme.id}`
    await page.goto(manage)
    await page.fill("#oidc-name", "Second IdP")
    await page.fill("#oidc-issuer", idp.issuer)
    await page.fill("#oidc-client-id", "second")
    await page.fill("#oidc-client-secret", "second-secret-value")
    await Promise.all([page.waitForURL(/done=create-oidc/), page.press("#oidc-client-secret", "Enter")])
    expect(await page.locator(".notice").innerText()).toContain("added")
    expect(await page.content()).not.toContain("second-secret-value")
    await Promise.all([page.waitForURL(/done=disable/), page.getByRole("button", { name: "Turn off Second IdP" }).click()])
    await Promise.all([page.waitForURL(/done=delete/), page.getByRole("button", { name: "Delete Second IdP" }).click()])
    expect(await page.getByText("Second IdP").count()).toBe(0)
    // A bad issuer is said on the page, and nothing is added.
    await page.fill("#oidc-name", "Broken")
    await page.fill("#oidc-issuer", "https://user:pass@idp.example")
    await page.fill("#oidc-client-id", "x")
    await page.fill("#oidc-client-secret", "y")
    await Promise.all([page.waitForURL(/error=InvalidInput/), page.press("#oidc-client-secret", "Enter")])
    await expectClean(page, csp, "manage-error")
    await context.close()
  }, 90_000)

  it("shows another organization's member nothing of Acme's connections", async () => {
    await w.user("mallory@example.com")
    const { context, page } = await signedIn("mallory@example.com")
    const response = await page.goto(`${server.origin}/auth/sso/manage?organizationId=${acme.id}`)
    expect(response?.status()).toBe(404)
    expect(await page.content()).not.toContain("Acme IdP")
    await context.close()
  }, 60_000)
})
