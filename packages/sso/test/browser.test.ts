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
})
