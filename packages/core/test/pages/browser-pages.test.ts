/**
 * Every built-in page in real Chromium, in the light and the dark scheme: the right palette, no CSP
 * violation, no serious or critical axe-core finding, a visible focus ring, and a screenshot kept
 * under test-artifacts/screenshots/pages/.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, watchCsp } from "@sesame/testing"
import { startApp, type BrowserApp } from "./browser-app.js"

const suite = "pages"
const lightBackground = "rgb(243, 244, 246)"
const darkBackground = "rgb(18, 20, 25)"

interface PageCase {
  name: string
  path: string
  status: number
  heading: string
  language?: string
}

const pages: PageCase[] = [
  { name: "signin-credentials-error", path: "/auth/signin?error=CredentialsSignin&callbackUrl=%2Fprivate", status: 200, heading: "Sign in" },
  { name: "signin-all-kinds", path: "/fixture/signin?error=OAuthAccountNotLinked&email=ada%40example.com", status: 200, heading: "Sign in" },
  { name: "signin-themed", path: "/themed/signin", status: 200, heading: "Sign in" },
  { name: "signin-french", path: "/fixture/signin?error=SessionRequired", status: 200, heading: "Connexion", language: "fr-CA,fr;q=0.9" },
  { name: "signout", path: "/auth/signout", status: 200, heading: "Sign out" },
  { name: "error-configuration", path: "/auth/error?error=Configuration", status: 500, heading: "Server error" },
  { name: "error-access-denied", path: "/auth/error?error=AccessDenied", status: 403, heading: "Access denied" },
  { name: "error-verification", path: "/auth/error?error=Verification", status: 403, heading: "Unable to sign in" },
  { name: "error-default", path: "/auth/error?error=OAuthCallbackError", status: 200, heading: "Error" },
  { name: "error-broken-configuration", path: "/broken/signin", status: 500, heading: "Server error" },
  { name: "verify-request", path: "/auth/verify-request?provider=email&type=email", status: 200, heading: "Check your email" },
]

let browser: Browser
let app: BrowserApp
const contexts = new Map<"light" | "dark", BrowserContext>()

beforeAll(async () => {
  ;[browser, app] = await Promise.all([launchBrowser(), startApp()])
  for (const scheme of ["light", "dark"] as const) {
    contexts.set(scheme, await browser.newContext({ colorScheme: scheme, viewport: { width: 480, height: 860 } }))
  }
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

interface Opened {
  page: Page
  status: number
  cspViolations(): Promise<string[]>
}

async function newPage(context: BrowserContext): Promise<Opened> {
  const page = await context.newPage()
  const csp = await watchCsp(page)
  return { page, status: 0, cspViolations: () => csp.violations() }
}

async function visit(opened: Opened, path: string, language?: string): Promise<Opened> {
  await opened.page.setExtraHTTPHeaders(language ? { "accept-language": language } : {})
  const response = await opened.page.goto(`${app.origin}${path}`)
  return { ...opened, status: response!.status() }
}

async function open(context: BrowserContext, path: string): Promise<Opened> {
  return visit(await newPage(context), path)
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

describe("each page, in the light and the dark scheme", () => {
  // One tab per scheme, reused (a new tab costs more than the checks); both schemes load at once.
  const tabs = new Map<"light" | "dark", Opened>()
  beforeAll(async () => {
    for (const [scheme, context] of contexts) tabs.set(scheme, await newPage(context))
  })

  async function check(scheme: "light" | "dark", c: PageCase): Promise<void> {
    const { page, status, cspViolations } = await visit(tabs.get(scheme)!, c.path, c.language)
    expect(status, scheme).toBe(c.status)
    expect(await page.locator("h1").innerText(), scheme).toBe(c.heading)
    expect(await background(page), scheme).toBe(scheme === "dark" ? darkBackground : lightBackground)
    await saveScreenshot(page, suite, `${c.name}-${scheme}`)
    const axe = await runAxe(page)
    const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
    expect(blocking, `${scheme}: ${describeViolations(blocking)}`).toEqual([])
    expect(await cspViolations(), scheme).toEqual([])
  }

  for (const c of pages) {
    it(`${c.name}: ${c.status}, each palette, no CSP violation, no serious or critical axe finding`, async () => {
      await Promise.all([check("light", c), check("dark", c)])
    })
  }
})

describe("theme.colorScheme", () => {
  it("dark wins over a light system preference, and light over a dark one", async () => {
    const dark = await open(contexts.get("light")!, "/dark/signin")
    expect(await background(dark.page)).toBe(darkBackground)
    await saveScreenshot(dark.page, suite, "signin-forced-dark-on-light-system")
    const light = await open(contexts.get("dark")!, "/light/signin")
    expect(await background(light.page)).toBe(lightBackground)
    await saveScreenshot(light.page, suite, "signin-forced-light-on-dark-system")
    for (const { page, cspViolations } of [dark, light]) {
      const axe = await runAxe(page)
      expect([...axe.byImpact.critical, ...axe.byImpact.serious]).toEqual([])
      expect(await cspViolations()).toEqual([])
      await page.close()
    }
  })

  it("a brand colour reaches the buttons with readable text, and the logo shows", async () => {
    const { page } = await open(contexts.get("light")!, "/themed/signin")
    const button = page.getByRole("button", { name: "Sign in with Credentials" })
    expect(await button.evaluate((b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color])).toEqual([
      "rgb(255, 214, 10)",
      "rgb(17, 19, 24)",
    ])
    expect(await page.locator("img.logo").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await page.close()
  })
})

describe("keyboard", () => {
  it("shows a focus ring on each control in turn, in both schemes", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const { page } = await open(contexts.get(scheme)!, "/fixture/signin")
      const seen: string[] = []
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press("Tab")
        const focus = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement
          const style = getComputedStyle(el)
          return { tag: el.tagName, outline: `${style.outlineStyle} ${style.outlineWidth}` }
        })
        expect(focus.outline, `${scheme} ${focus.tag}`).toBe("solid 3px")
        seen.push(focus.tag)
      }
      expect(seen).toEqual(["BUTTON", "BUTTON", "INPUT", "BUTTON", "INPUT", "INPUT"])
      await saveScreenshot(page, suite, `signin-all-kinds-focus-${scheme}`)
      await page.close()
    }
  })
})
