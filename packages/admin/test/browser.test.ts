/**
 * The admin pages in real Chromium, served over HTTP: no CSP violation, no serious or critical
 * axe-core finding and a focus ring on every control the Tab key reaches, light and dark and in the
 * five languages; then an admin finds a user with the search form, suspends them with the keyboard
 * alone, and the user's own browser is signed out and sent to the page that says so; and an admin
 * sees the app as a user, with the banner on the built-in pages, and comes back.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { Auth } from "@sesame/core"
import { describeViolations, focusStops, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeWorld } from "./world.js"

const suite = "admin"
let browser: Browser
let server: TestServer
let world: ReturnType<typeof makeWorld>
let patId: string

beforeAll(async () => {
  world = makeWorld({ strategy: "jwt", revocation: { cache: 0 } })
  await world.user("boss@example.com", "admin")
  patId = (await world.user("pat@example.com")).id
  for (let i = 0; i < 3; i++) await world.user(`member-${i}@example.com`)
  server = await serve((request) => Auth(request, world.config))
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function signedIn(email: string, options: { colorScheme?: "light" | "dark"; locale?: string } = {}): Promise<{ context: BrowserContext; page: Page; csp: Awaited<ReturnType<typeof watchCsp>> }> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? "light", locale: options.locale ?? "en-US" })
  const page = await context.newPage()
  const csp = await watchCsp(page)
  await page.goto(`${server.origin}/auth/signin`)
  await page.fill('input[name="email"]', email)
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/auth/signin")), page.click('form[action$="/callback/credentials"] button')])
  return { context, page, csp }
}

async function checkPage(page: Page, csp: Awaited<ReturnType<typeof watchCsp>>, label: string, focusable = true): Promise<void> {
  const { byImpact } = await runAxe(page)
  expect([...byImpact.critical, ...byImpact.serious], `${label}:\n${describeViolations([...byImpact.critical, ...byImpact.serious])}`).toEqual([])
  expect(await csp.violations(), label).toEqual([])
  if (focusable) {
    const stops = await focusStops(page)
    expect(stops.length, `${label}: no control takes the focus`).toBeGreaterThan(0)
    for (const stop of stops) expect(stop.outline, `${label}: ${stop.name}`).toBe("solid 3px")
  }
  await saveScreenshot(page, suite, label)
}

describe("the admin pages in Chromium", () => {
  it("each page, light and dark, and in five languages: axe, CSP, focus rings", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const { context, page, csp } = await signedIn("boss@example.com", { colorScheme })
      for (const [name, path] of [
        ["users", "/auth/admin"],
        ["user", `/auth/admin/view?userId=${patId}`],
      ] as const) {
        await page.goto(`${server.origin}${path}`)
        await checkPage(page, csp, `${name}-${colorScheme}`)
      }
      await context.close()
    }
    for (const locale of ["fr-FR", "de-DE", "es-ES", "ja-JP"]) {
      const { context, page, csp } = await signedIn("boss@example.com", { locale })
      await page.goto(`${server.origin}/auth/admin/view?userId=${patId}`)
      expect(await page.getAttribute("html", "lang")).toBe(locale.slice(0, 2))
      await checkPage(page, csp, `user-${locale}`)
      await context.close()
    }
  }, 180_000)

  it("an admin finds a user and suspends them with the keyboard; the user is signed out and told", async () => {
    const pat = await signedIn("pat@example.com")
    expect(await (await pat.page.request.get(`${server.origin}/auth/session`)).json()).toMatchObject({ user: { email: "pat@example.com" } })

    const boss = await signedIn("boss@example.com")
    await boss.page.goto(`${server.origin}/auth/admin`)
    await boss.page.focus("#admin-q")
    await boss.page.keyboard.type("PAT@")
    await Promise.all([boss.page.waitForURL(/q=PAT/), boss.page.keyboard.press("Enter")])
    const links = boss.page.locator("table a")
    expect(await links.allInnerTexts()).toEqual(["pat@example.com"])
    await Promise.all([boss.page.waitForURL(/admin\/view/), links.first().click()])
    await boss.page.focus("#admin-reason")
    await boss.page.keyboard.type("spam")
    // Tab to the suspend button (past the date field's parts) and press it.
    let label = ""
    for (let i = 0; i < 12 && label !== "Suspend"; i++) {
      await boss.page.keyboard.press("Tab")
      label = await boss.page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? "")
    }
    expect(label).toBe("Suspend")
    await Promise.all([boss.page.waitForURL(/done=suspend/), boss.page.keyboard.press("Enter")])
    expect(await boss.page.locator('[role="status"]').innerText()).toBe("The user is suspended, and their sessions have ended.")
    await checkPage(boss.page, boss.csp, "suspended-done", false)

    // The user's browser: signed out at its next request, and a new sign-in goes to the page that says why.
    expect(await (await pat.page.request.get(`${server.origin}/auth/session`)).json()).toBeNull()
    await pat.page.goto(`${server.origin}/auth/signin`)
    await pat.page.fill('input[name="email"]', "pat@example.com")
    await Promise.all([pat.page.waitForURL(/admin\/suspended/), pat.page.click('form[action$="/callback/credentials"] button')])
    expect(await pat.page.locator("h1").innerText()).toBe("Account suspended")
    await checkPage(pat.page, pat.csp, "suspended-page", false)
    await boss.context.close()
    await pat.context.close()
  }, 120_000)

  it("an admin sees the app as a user: the banner on the built-in pages, and the way back", async () => {
    const memberId = (await world.adapter.getUserByEmail!("member-0@example.com"))!.id
    const boss = await signedIn("boss@example.com")
    await boss.page.goto(`${server.origin}/auth/admin/view?userId=${memberId}`)
    await Promise.all([boss.page.waitForURL((url) => url.pathname === "/"), boss.page.click('button:has-text("See the app as this user")')])
    await boss.page.goto(`${server.origin}/auth/admin/acting`)
    const banner = boss.page.locator("p.acting")
    expect(await banner.innerText()).toContain("You are seeing the app as member-0@example.com, on behalf of boss@example.com")
    await checkPage(boss.page, boss.csp, "acting")
    await Promise.all([boss.page.waitForURL(/done=impersonate/), banner.locator("a").click().then(() => boss.page.click('button:has-text("Stop and return")'))])
    expect(await boss.page.locator('[role="status"]').first().innerText()).toBe("You are back to your own account.")
    expect(await boss.page.locator("p.acting").count()).toBe(0)
    await boss.context.close()
  }, 120_000)
})
