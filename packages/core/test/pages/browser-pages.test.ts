/**
 * Every built-in page in real Chromium, in the light and the dark scheme: the right palette, no CSP
 * violation, no serious or critical axe-core finding, a visible focus ring on every control the Tab
 * key reaches, and a screenshot kept under test-artifacts/screenshots/pages/. The password
 * provider's pages also in each of the five languages, and used with the keyboard alone.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeViolations, launchBrowser, runAxe, saveScreenshot, watchCsp } from "@sesame/testing"
import type { MessageKey } from "../../src/pages/messages.js"
import { builtInCatalogues as allCatalogues } from "../../src/config/appearance.js"
import { startApp, type BrowserApp } from "./browser-app.js"
import { passwordLinks, type PasswordLinks } from "./fixtures.js"
import { renderTwoFactorFixture, twoFactorCases } from "./two-factor-fixtures.js"

/** Every built-in text by language: the core's and every capability's. */
const builtInCatalogues = allCatalogues()
const suite = "pages"
const lightBackground = "rgb(243, 244, 246)"
const darkBackground = "rgb(18, 20, 25)"

interface PageCase {
  name: string
  /** The path, or a function of the links that the password provider's emails carried. */
  path: string | ((links: PasswordLinks) => string)
  status: number
  heading: string
  /** The catalogue key of the heading, for the pages checked in every language. */
  headingKey?: MessageKey
  /** A text the page must show (an alert, a notice, a status line). */
  shows?: string
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
  { name: "unavailable", path: "/fixture/unavailable", status: 503, heading: "Try again in a moment" },
  { name: "unavailable-japanese", path: "/fixture/unavailable", status: 503, heading: "しばらくしてからもう一度お試しください", language: "ja,en;q=0.5" },
]

/** The password provider's pages, from `Auth()` under `/password`. */
const passwordPages: PageCase[] = [
  { name: "signup", path: "/password/signup", status: 200, heading: "Create an account", headingKey: "signup.heading" },
  {
    name: "signup-too-short",
    path: "/password/signup?error=too-short&email=ada%40example.com",
    status: 200,
    heading: "Create an account",
    headingKey: "signup.heading",
    shows: "That password is too short.",
  },
  {
    name: "signup-sent",
    path: "/password/signup?sent=1",
    status: 200,
    heading: "Check your email",
    headingKey: "verify.heading",
    shows: "We’ve sent an email to that address. Open the link in it to continue",
  },
  { name: "forgot-password", path: "/password/forgot-password", status: 200, heading: "Reset your password", headingKey: "forgot.heading" },
  {
    name: "forgot-password-sent",
    path: "/password/forgot-password?sent=1",
    status: 200,
    heading: "Check your email",
    headingKey: "verify.heading",
    shows: "Open the link in it to choose a new password",
  },
  {
    name: "reset-password",
    path: (links) => links.reset,
    status: 200,
    heading: "Choose a new password",
    headingKey: "reset.heading",
    shows: "For the account ada@example.com.",
  },
  {
    name: "reset-password-breached",
    path: (links) => `${links.reset}&error=breached`,
    status: 200,
    heading: "Choose a new password",
    headingKey: "reset.heading",
    shows: "This password has appeared in a data breach",
  },
  {
    name: "verify-email",
    path: (links) => links.verify,
    status: 200,
    heading: "Confirm your email address",
    headingKey: "verifyEmail.heading",
    shows: "To confirm ada@example.com for your account on 127.0.0.1:",
  },
  {
    name: "verify-email-wrong-password",
    path: (links) => `${links.verify}&error=wrong-password`,
    status: 200,
    heading: "Confirm your email address",
    headingKey: "verifyEmail.heading",
    shows: "That password is not right.",
  },
  {
    name: "signin-password-reset",
    path: "/password/signin?notice=PasswordReset",
    status: 200,
    heading: "Sign in",
    headingKey: "signin.heading",
    shows: "Your password was changed. Sign in with the new one.",
  },
  {
    name: "signin-email-not-verified",
    path: "/password/signin?error=EmailNotVerified",
    status: 200,
    heading: "Sign in",
    headingKey: "signin.heading",
    shows: "Confirm your email address first: we’ve sent you a new link.",
  },
]

/** The two-factor pages, rendered by their page functions and served to Chromium by a route (see `serveTwoFactorPages`). */
const twoFactorPages: PageCase[] = twoFactorCases.map((c) => ({
  name: `two-factor-${c.name}`,
  path: `/two-factor-fixture/${c.name}`,
  status: 200,
  heading: builtInCatalogues.get("en")![c.headingKey],
  headingKey: c.headingKey,
  ...(c.shows ? { shows: c.shows } : {}),
}))

/** The forms the two-factor pages posted, as received (their actions are answered with a plain page). */
const twoFactorPosts: { path: string; form: URLSearchParams }[] = []

/**
 * Answers `/two-factor-fixture/*` in `context` from the page functions, with their own headers
 * (CSP included), as `Auth()` would send them; a form posted there is recorded.
 */
async function serveTwoFactorPages(context: BrowserContext): Promise<void> {
  await context.route("**/two-factor-fixture/**", async (route) => {
    const request = route.request()
    if (request.method() === "POST") {
      twoFactorPosts.push({ path: new URL(request.url()).pathname, form: new URLSearchParams(request.postData() ?? "") })
      await route.fulfill({ contentType: "text/html; charset=utf-8", body: '<!doctype html><html lang="en"><title>Posted</title><h1>Posted</h1></html>' })
      return
    }
    const response = renderTwoFactorFixture(new Request(request.url(), { headers: await request.allHeaders() }))
    if (!response) return route.fulfill({ status: 404, body: "not found" })
    await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() })
  })
}

let browser: Browser
let app: BrowserApp
/** The links of Ada's emails: she signed up, then asked for a new password. */
let links: PasswordLinks
const contexts = new Map<"light" | "dark", BrowserContext>()

beforeAll(async () => {
  ;[browser, app] = await Promise.all([launchBrowser(), startApp()])
  links = await passwordLinks(app.password, app.origin, "ada@example.com")
  for (const scheme of ["light", "dark"] as const) {
    contexts.set(scheme, await browser.newContext({ colorScheme: scheme, viewport: { width: 480, height: 860 } }))
    await serveTwoFactorPages(contexts.get(scheme)!)
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

async function visit(opened: Opened, path: PageCase["path"], language?: string): Promise<Opened> {
  await opened.page.setExtraHTTPHeaders(language ? { "accept-language": language } : {})
  const response = await opened.page.goto(`${app.origin}${typeof path === "string" ? path : path(links)}`)
  return { ...opened, status: response!.status() }
}

async function open(context: BrowserContext, path: string): Promise<Opened> {
  return visit(await newPage(context), path)
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

/** Elements with the `hidden` attribute that the page's stylesheet shows anyway (as `tag#id[name]`). */
const shownThoughHidden = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[hidden]")]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}[${el.getAttribute("name") ?? ""}]`),
  )

interface FocusStop {
  tag: string
  /** The control's text, or its name or id. */
  name: string
  /** Outline style and width while focused. */
  outline: string
}

/**
 * The controls the Tab key reaches, in order, from the page as loaded (an autofocused control is
 * the first stop), until focus leaves the page or comes back to a control already seen.
 */
async function tabThrough(page: Page, limit = 30): Promise<FocusStop[]> {
  const stops: FocusStop[] = []
  const seen = new Set<number>()
  for (let i = 0; i <= limit; i++) {
    if (i > 0) await page.keyboard.press("Tab")
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body || el === document.documentElement) return null
      const style = getComputedStyle(el)
      return {
        index: [...document.querySelectorAll("*")].indexOf(el),
        tag: el.tagName,
        name: (el.innerText || el.getAttribute("name") || el.id).trim(),
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      }
    })
    if (!focus) {
      if (i > 0) break
      continue
    }
    if (seen.has(focus.index)) break
    seen.add(focus.index)
    stops.push({ tag: focus.tag, name: focus.name, outline: focus.outline })
  }
  return stops
}

/** Every control the Tab key reaches shows the focus ring. */
function expectFocusRings(stops: readonly FocusStop[], label: string): void {
  expect(stops.length, `${label}: no control takes the focus`).toBeGreaterThan(0)
  for (const stop of stops) expect(stop.outline, `${label} ${stop.tag} ${stop.name}`).toBe("solid 3px")
}

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
    if (c.shows) expect(await page.locator(".card").innerText(), scheme).toContain(c.shows)
    expect(await background(page), scheme).toBe(scheme === "dark" ? darkBackground : lightBackground)
    expect(await shownThoughHidden(page), scheme).toEqual([])
    await saveScreenshot(page, suite, `${c.name}-${scheme}`)
    expectFocusRings(await tabThrough(page), scheme)
    const axe = await runAxe(page)
    const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
    expect(blocking, `${scheme}: ${describeViolations(blocking)}`).toEqual([])
    expect(await cspViolations(), scheme).toEqual([])
  }

  for (const c of [...pages, ...passwordPages, ...twoFactorPages]) {
    it(`${c.name}: ${c.status}, each palette, focus rings, no CSP violation, no serious or critical axe finding`, async () => {
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

describe("the password provider's pages in each language", () => {
  for (const [lang, catalogue] of builtInCatalogues) {
    it(`${lang}: lang, the heading in ${lang}, no serious or critical axe finding`, async () => {
      const opened = await newPage(contexts.get("light")!)
      for (const c of passwordPages) {
        const { page, status } = await visit(opened, c.path, lang)
        expect(status, c.name).toBe(c.status)
        expect(await page.evaluate(() => document.documentElement.lang), c.name).toBe(lang)
        const heading = await page.locator("h1").innerText()
        expect(heading, `${lang} ${c.name}`).toBe(catalogue[c.headingKey!])
        if (lang === "en") expect(heading, c.name).toBe(c.heading)
        else expect(heading, `${lang} ${c.name} is in English`).not.toBe(c.heading)
        if (c.name === "signup") await saveScreenshot(page, suite, `signup-${lang}`)
        const axe = await runAxe(page)
        const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
        expect(blocking, `${lang} ${c.name}: ${describeViolations(blocking)}`).toEqual([])
      }
      expect(await opened.cspViolations()).toEqual([])
      await opened.page.close()
    })
  }
})

describe("the two-factor pages in each language", () => {
  for (const [lang, catalogue] of builtInCatalogues) {
    it(`${lang}: lang, the heading in ${lang}, no serious or critical axe finding, no CSP violation`, async () => {
      const opened = await newPage(contexts.get("light")!)
      for (const c of twoFactorPages) {
        const { page, status } = await visit(opened, c.path, lang)
        expect(status, c.name).toBe(c.status)
        expect(await page.evaluate(() => document.documentElement.lang), c.name).toBe(lang)
        const heading = await page.locator("h1").innerText()
        expect(heading, `${lang} ${c.name}`).toBe(catalogue[c.headingKey!])
        if (lang === "en") expect(heading, c.name).toBe(c.heading)
        else expect(heading, `${lang} ${c.name} is in English`).not.toBe(c.heading)
        if (["two-factor-challenge-totp", "two-factor-setup-new", "two-factor-recovery-codes"].includes(c.name)) await saveScreenshot(page, suite, `${c.name}-${lang}`)
        const axe = await runAxe(page)
        const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
        expect(blocking, `${lang} ${c.name}: ${describeViolations(blocking)}`).toEqual([])
      }
      expect(await opened.cspViolations()).toEqual([])
      await opened.page.close()
    })
  }

  it("draws the QR code square, dark on white, in the dark scheme too", async () => {
    const { page } = await open(contexts.get("dark")!, "/two-factor-fixture/setup-new")
    const qr = page.getByRole("img", { name: "QR code to add your account to an authenticator app" })
    const box = (await qr.boundingBox())!
    expect(box.width).toBeGreaterThan(150)
    expect(box.height).toBe(box.width)
    // What the page paints, after its stylesheet (not only the attributes): white ground, black modules.
    const colours = await qr.evaluate((svg) => [getComputedStyle(svg.querySelector("rect")!).fill, getComputedStyle(svg.querySelector("path")!).fill])
    expect(colours).toEqual(["rgb(255, 255, 255)", "rgb(0, 0, 0)"])
    await saveScreenshot(page, suite, "two-factor-setup-new-qr-dark")
    await page.close()
  })
})

describe("the every-kind sign-in page", () => {
  it("includes the password section: address, password, its button, and the links to a forgotten password and to sign-up", async () => {
    const { page } = await open(contexts.get("light")!, "/fixture/signin")
    // The page asks for the address once for the password, email and passkey providers.
    const form = page.locator('form[action$="/callback/password"]')
    expect(await form.isVisible()).toBe(true)
    expect(await form.getByRole("textbox", { name: "Email address" }).getAttribute("autocomplete")).toContain("username")
    expect(await form.getByLabel("Password").getAttribute("autocomplete")).toBe("current-password")
    expect(await form.getByRole("button").first().innerText()).toBe("Sign in with Password")
    for (const name of ["Forgot your password?", "No account yet? Create one"]) expect(await page.getByRole("link", { name }).isVisible(), name).toBe(true)
    await form.scrollIntoViewIfNeeded()
    await saveScreenshot(page, suite, "signin-all-kinds-password-section")
    await page.close()
  })

  it("tells its two password forms apart: each is a region named by its provider's heading (Password beside a credentials provider)", async () => {
    const { page } = await open(contexts.get("light")!, "/fixture/signin")
    const headings = await page.getByRole("heading", { level: 2 }).allInnerTexts()
    expect(headings).toEqual(["Password", "Staff account"])
    const password = page.getByRole("region", { name: "Password" })
    expect(await password.getByRole("textbox", { name: "Email address" }).isVisible()).toBe(true)
    expect(await password.getByRole("button", { name: "Sign in with Password" }).isVisible()).toBe(true)
    const staff = page.getByRole("region", { name: "Staff account" })
    expect(await staff.getByRole("textbox", { name: "Username" }).isVisible()).toBe(true)
    expect(await staff.getByRole("button", { name: "Sign in with Staff account" }).isVisible()).toBe(true)
    expect(await staff.getByRole("textbox", { name: "Email address" }).count()).toBe(0)
    const axe = await runAxe(page)
    expect([...axe.byImpact.critical, ...axe.byImpact.serious, ...axe.byImpact.moderate].map((v) => v.id)).toEqual([])
    await page.close()
  })
})

describe("keyboard", () => {
  it("shows a focus ring on each control in turn, in both schemes", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const { page } = await open(contexts.get(scheme)!, "/fixture/signin")
      const stops = await tabThrough(page)
      expectFocusRings(stops, scheme)
      // OAuth and OIDC; the address form of the password and email providers, with the password's
      // two links; the credentials form. The passkey form stays hidden: the fixture's `/auth` has no
      // passkey provider to serve its script.
      expect(stops.map((s) => s.name)).toEqual([
        "Sign in with Octo",
        "Sign in with Acme ID",
        "email",
        "password",
        "Sign in with Password",
        "Sign in with Email",
        "Forgot your password?",
        "No account yet? Create one",
        "username",
        "password",
        "Sign in with Staff account",
      ])
      // Focus left the page after the last control: back to it, for a screenshot with the ring.
      await page.keyboard.press("Shift+Tab")
      await saveScreenshot(page, suite, `signin-all-kinds-focus-${scheme}`)
      await page.close()
    }
  })

  it("signs up with the keyboard alone: Tab to each field, type, Enter, and the page says to check the email", async () => {
    const { page, cspViolations } = await open(contexts.get("light")!, "/password/signup")
    const focused = () => page.evaluate(() => document.activeElement?.id)
    for (const [id, text] of [
      ["signup-name", "Kay Board"],
      ["signup-email", "kay@example.com"],
      ["signup-password", "four keys on a board"],
    ]) {
      await page.keyboard.press("Tab")
      expect(await focused()).toBe(id)
      await page.keyboard.type(text!)
    }
    await saveScreenshot(page, suite, "signup-keyboard-filled")
    await Promise.all([page.waitForURL(/\/password\/signup\?sent=1$/), page.keyboard.press("Enter")])
    expect(await page.locator("h1").innerText()).toBe("Check your email")
    expect(await page.getByRole("status").innerText()).toContain("We’ve sent an email to that address.")
    await saveScreenshot(page, suite, "signup-keyboard-sent")
    const mail = app.password.mails.findLast((m) => m.to === "kay@example.com")
    expect(mail?.kind).toBe("verify-email")
    expect(await cspViolations()).toEqual([])
    await page.close()
  })

  it("answers the two-factor challenge with the keyboard alone: type the code, Tab, Space ticks “remember”, Enter posts", async () => {
    const { page, cspViolations } = await open(contexts.get("light")!, "/two-factor-fixture/challenge-totp")
    // The code field has the focus as the page loads (the first stop), then the page in order.
    // Autofocus lands a moment after the load event on a busy machine: wait for it before tabbing.
    await page.waitForFunction(() => document.activeElement?.id === "twofactor-code")
    const stops = await tabThrough(page)
    expect(stops.map((s) => s.name)).toEqual(["code", "remember", "Continue", "Use a recovery code instead", "Cancel and go back to sign-in"])
    await page.reload()
    await page.waitForFunction(() => document.activeElement?.id === "twofactor-code")
    await page.keyboard.type("123 456")
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("twofactor-remember")
    await page.keyboard.press("Space")
    await page.keyboard.press("Shift+Tab")
    await saveScreenshot(page, suite, "two-factor-challenge-keyboard-filled")
    const before = twoFactorPosts.length
    await Promise.all([page.waitForURL(/\/two-factor-fixture\/post\/two-factor$/), page.keyboard.press("Enter")])
    const posted = twoFactorPosts.slice(before)
    expect(posted.map((p) => [p.path, Object.fromEntries(p.form)])).toEqual([
      ["/two-factor-fixture/post/two-factor", { csrfToken: "f".repeat(64), code: "123 456", remember: "1" }],
    ])
    expect(await cspViolations()).toEqual([])
    await page.close()
  })

  it("turns to the recovery-code form with the keyboard, and posts a recovery code", async () => {
    const { page } = await open(contexts.get("light")!, "/two-factor-fixture/challenge-totp")
    await page.waitForFunction(() => document.activeElement?.id === "twofactor-code")
    const stops = await tabThrough(page)
    const link = stops.findIndex((s) => s.name === "Use a recovery code instead")
    await page.reload()
    await page.waitForFunction(() => document.activeElement?.id === "twofactor-code")
    for (let i = 0; i < link; i++) await page.keyboard.press("Tab")
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe("Use a recovery code instead")
    await Promise.all([page.waitForURL(/\/challenge-recovery$/), page.keyboard.press("Enter")])
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("twofactor-recovery-code")
    await page.keyboard.type("abcde-fghij")
    const before = twoFactorPosts.length
    await Promise.all([page.waitForURL(/\/post\/two-factor$/), page.keyboard.press("Enter")])
    expect(Object.fromEntries(twoFactorPosts[before]!.form)).toEqual({ csrfToken: "f".repeat(64), recoveryCode: "abcde-fghij" })
    await page.close()
  })

  it("reaches “Forgot your password?” on the sign-in page with Tab, and Enter follows it", async () => {
    const { page } = await open(contexts.get("light")!, "/password/signin?callbackUrl=%2Fprivate")
    const stops = await tabThrough(page)
    expect(stops.map((s) => s.name)).toEqual(["email", "password", "Sign in with Password", "Forgot your password?", "No account yet? Create one"])
    // Back to the link, as a visitor tabbing to it would be.
    await page.reload()
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab")
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe("Forgot your password?")
    await Promise.all([page.waitForURL(/\/password\/forgot-password\?/), page.keyboard.press("Enter")])
    expect(await page.locator("h1").innerText()).toBe("Reset your password")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${app.origin}/private`)
    await page.close()
  })
})
