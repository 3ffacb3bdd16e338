/**
 * The management page in Chromium when the app has a service provider key (`serviceProvider`): the
 * "Sign requests" box on each SAML connection and on the form that adds one, and the app's
 * certificate to copy for an IdP that takes a file. It passes axe with no CSP violation, wide and
 * narrow, English and Japanese, and the box turns a connection's signing on from the browser.
 */
import type { Browser } from "playwright-core"
import { Auth } from "@sesame/core"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { keyPair } from "./saml/fixtures.js"
import { ssoWorld, type World } from "./world.js"

let browser: Browser
let server: TestServer
let w: World
let ada: Awaited<ReturnType<World["user"]>>
let acme: { id: string; slug: string }

beforeAll(async () => {
  const [spKey, idpKey] = await Promise.all([keyPair("app.example"), keyPair("acme-idp")])
  w = ssoWorld({ allowPrivateNetworks: true, serviceProvider: spKey })
  ada = await w.user("ada@example.com")
  acme = await w.organization(ada, "Acme")
  const saml = { protocol: "saml", idpEntityId: "https://idp.acme.example", ssoUrl: "https://idp.acme.example/sso", certificates: [idpKey.certificate] }
  await ada.api("createConnection", acme.id, { ...saml, name: "Acme Okta", signRequests: true })
  await ada.api("createConnection", acme.id, { ...saml, idpEntityId: "https://idp2.acme.example", name: "Acme Entra" })
  server = await serve((request) => Auth(request, w.config))
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the management page with the app's service provider key, in Chromium", () => {
  it("passes axe with no CSP violation, its certificate shown, wide and narrow, in English and Japanese; the box turns signing on", async () => {
    for (const [locale, width, colorScheme] of [["en-US", 1280, "light"], ["ja-JP", 420, "dark"]] as const) {
      const context = await browser.newContext({ locale, colorScheme, viewport: { width, height: 900 } })
      const page = await context.newPage()
      const csp = await watchCsp(page)
      await page.goto(`${server.origin}/auth/signin`)
      await page.fill('form[action$="/callback/credentials"] input[name="email"]', "ada@example.com")
      await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/auth/signin")), page.click('form[action$="/callback/credentials"] button')])
      await page.goto(`${server.origin}/auth/sso/manage?organizationId=${acme.id}`)
      await page.locator("details summary").first().click()
      expect(await page.inputValue("#sp-certificate-0")).toMatch(/^-----BEGIN CERTIFICATE-----/)
      const { byImpact } = await runAxe(page)
      const label = `manage-sp-key-${locale}-${width}`
      expect([...byImpact.critical, ...byImpact.serious], `${label}:\n${describeViolations([...byImpact.critical, ...byImpact.serious])}`).toEqual([])
      expect(await csp.violations(), label).toEqual([])
      await saveScreenshot(page, "sso", label)
      if (locale === "en-US") {
        expect(await page.isChecked("#sign-requests-0")).toBe(true)
        expect(await page.isChecked("#sign-requests-1")).toBe(false)
        await page.check("#sign-requests-1")
        await Promise.all([page.waitForURL(/done=sign-requests/), page.getByRole("button", { name: "Save request signing of Acme Entra" }).click()])
        expect(await page.locator(".notice").innerText()).toContain("Request signing was saved")
        expect(await page.isChecked("#sign-requests-1")).toBe(true)
      }
      await context.close()
    }
  }, 90_000)
})
