/**
 * The built-in pages in real Chromium, served over HTTP: no CSP violation, no serious or critical
 * axe-core finding and a focus ring on every control the Tab key reaches, in the light and the dark
 * scheme and in the five languages; an organization created with the keyboard alone; an invitation
 * sent from one browser and accepted from the invitee's own, who then switches to it.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { Auth } from "@sesame/core"
import { describeViolations, focusStops, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { acmeWithStaff } from "./world.js"

const suite = "organizations"
let browser: Browser
let server: TestServer
let staff: Awaited<ReturnType<typeof acmeWithStaff>>

beforeAll(async () => {
  staff = await acmeWithStaff()
  server = await serve((request) => Auth(request, staff.w.config))
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A browser of its own for `email`, signed in through the sign-in page's form. */
async function signedIn(email: string, options: { colorScheme?: "light" | "dark"; locale?: string } = {}): Promise<{ context: BrowserContext; page: Page; csp: Awaited<ReturnType<typeof watchCsp>> }> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? "light", locale: options.locale ?? "en-US" })
  const page = await context.newPage()
  const csp = await watchCsp(page)
  await page.goto(`${server.origin}/auth/signin`)
  await page.fill('input[name="email"]', email)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/auth/signin")), page.click('form[action$="/callback/credentials"] button')])
  return { context, page, csp }
}

/** axe (no serious or critical finding), no CSP violation, a focus ring on each control in turn. */
async function checkPage(page: Page, csp: Awaited<ReturnType<typeof watchCsp>>, label: string): Promise<void> {
  const { byImpact } = await runAxe(page)
  expect([...byImpact.critical, ...byImpact.serious], `${label}:\n${describeViolations([...byImpact.critical, ...byImpact.serious])}`).toEqual([])
  expect(await csp.violations(), label).toEqual([])
  const stops = await focusStops(page)
  expect(stops.length, `${label}: no control takes the focus`).toBeGreaterThan(0)
  for (const stop of stops) expect(stop.outline, `${label}: ${stop.name}`).toBe("solid 3px")
  await saveScreenshot(page, suite, label)
}

describe("the built-in pages in Chromium", () => {
  it("each page, light and dark: axe, CSP, focus rings", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const { context, page, csp } = await signedIn("ada@example.com", { colorScheme })
      for (const [name, path] of [
        ["home", "/auth/organization"],
        ["manage", `/auth/organization/manage?organizationId=${staff.org.id}`],
        ["inbox", "/auth/organization/inbox"],
      ] as const) {
        await page.goto(`${server.origin}${path}`)
        await checkPage(page, csp, `${name}-${colorScheme}`)
      }
      await context.close()
    }
  }, 120_000)

  it("creates an organization with the keyboard alone, then switches to it", async () => {
    const { context, page } = await signedIn("cy@example.com")
    await page.goto(`${server.origin}/auth/organization`)
    // Tab until the name field has the focus, type, Enter submits the form.
    for (let i = 0; i < 20 && (await page.evaluate(() => document.activeElement?.id)) !== "org-name"; i++) await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("org-name")
    await page.keyboard.type("Initech")
    await Promise.all([page.waitForURL(/done=create/), page.keyboard.press("Enter")])
    await expect.poll(() => page.getByRole("status").textContent()).toContain("The organization is created")
    await Promise.all([page.waitForURL(/done=switch/), page.getByRole("button", { name: "Switch to Initech" }).click()])
    expect(await page.locator(".current").textContent()).toBe("Initech")
    await context.close()
  }, 60_000)

  it("an invitation sent from the owner's page is accepted from the invitee's own browser", async () => {
    const owner = await signedIn("ada@example.com")
    await owner.page.goto(`${server.origin}/auth/organization/manage?organizationId=${staff.org.id}`)
    await owner.page.fill("#invite-email", "dee@example.com")
    await Promise.all([owner.page.waitForURL(/done=invite/), owner.page.getByRole("button", { name: "Send the invitation" }).click()])
    expect(await owner.page.getByRole("status").textContent()).toContain("The invitation is sent.")
    expect(staff.w.sent.at(-1)!.email).toBe("dee@example.com")

    await staff.w.adapter.createUser!({ id: crypto.randomUUID(), email: "dee@example.com", name: "Dee", emailVerified: new Date() })
    const dee = await signedIn("dee@example.com")
    await dee.page.goto(`${server.origin}/auth/organization/inbox`)
    await checkPage(dee.page, dee.csp, "inbox-with-invitation")
    await Promise.all([dee.page.waitForURL(/done=accept/), dee.page.getByRole("button", { name: "Join Acme" }).click()])
    await Promise.all([dee.page.waitForURL(/done=switch/), dee.page.getByRole("button", { name: "Switch to Acme" }).click()])
    const session = await (await dee.page.request.get(`${server.origin}/auth/session`)).json()
    expect(session.organization).toMatchObject({ id: staff.org.id, roles: ["member"] })
    await owner.context.close()
    await dee.context.close()
  }, 60_000)

  it.each([
    ["fr-FR", "Vos organisations"],
    ["de-DE", "Ihre Organisationen"],
    ["es-ES", "Sus organizaciones"],
    ["ja-JP", "所属している組織"],
  ])("%s: the switcher in the browser's language, axe-clean", async (locale, heading) => {
    const { context, page, csp } = await signedIn("bob@example.com", { locale })
    await page.goto(`${server.origin}/auth/organization`)
    expect(await page.locator("h1").textContent()).toBe(heading)
    const { byImpact } = await runAxe(page)
    expect([...byImpact.critical, ...byImpact.serious], describeViolations([...byImpact.critical, ...byImpact.serious])).toEqual([])
    expect(await csp.violations()).toEqual([])
    await context.close()
  }, 60_000)
})
