/**
 * Two-factor sign-in in real Chromium, driven as a person would (keyboard first): turning an
 * authenticator app on from the setup page, the challenge after the password (JavaScript on and
 * off), a recovery code used once, "remember this device", the challenge with Tab and Enter only,
 * and an email code as the first factor, good only in the browser that asked for it.
 *
 * Codes are computed here from the secret the page shows, as the phone would. A code is accepted
 * once per 30-second step per user, so a sign-in after enrolment types the next step's code
 * (inside the accepted drift) instead of waiting for the step to change.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser } from "@sesame/testing"
import { password, startTwoFactorApp, type ShownSession, type TwoFactorApp } from "./browser-app.js"
import { AuthenticatorApp } from "./harness.js"

let browser: Browser
let app: TwoFactorApp
const contexts: BrowserContext[] = []

beforeAll(async () => {
  ;[browser, app] = await Promise.all([launchBrowser(), startTwoFactorApp()])
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** A page in a new browser context (closed after the test); JavaScript on unless told. */
async function newPage(javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled, locale: "en-US" })
  contexts.push(context)
  return context.newPage()
}

const url = (path: string) => `${app.origin}${path}`
const home = () => url("/")
const challenge = () => url("/auth/two-factor")

let users = 0
/** A new password user for one test: each has its own codes, so tests do not spend each other's. */
async function newUser(): Promise<string> {
  const email = `user${++users}@example.com`
  await app.addUser(email)
  return email
}

/** What `/` shows about the session. */
async function shown(page: Page): Promise<{ heading: string; session: ShownSession | null }> {
  if (page.url() !== home()) await page.goto(home())
  return { heading: await page.locator("h1").innerText(), session: JSON.parse(await page.locator("#session").innerText()) as ShownSession | null }
}

/** The focused element, as a short description: `input#id`, or a link's or button's text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return "body"
    if (el instanceof HTMLInputElement) return `input#${el.id}`
    return `${el.tagName.toLowerCase()}:${(el.textContent ?? "").trim()}`
  })
}

/**
 * Runs `action`, which submits a form or follows a link, waits for the page it leads to, and
 * checks where that is: a wrong landing fails at once, naming the page reached.
 */
async function lands(page: Page, landing: string | RegExp, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent("load"), action()])
  if (typeof landing === "string") expect(page.url()).toBe(landing)
  else expect(page.url()).toMatch(landing)
  await autofocusSettled(page)
}

/** Autofocus lands a moment after the load event on a busy machine: wait for it, where the page has it. */
async function autofocusSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const target = document.querySelector("[autofocus]")
    return !target || document.activeElement === target
  })
}

/** Types into the focused field, then presses Enter, waiting for the page that answers. */
async function typeAndEnter(page: Page, text: string, landing: string | RegExp): Promise<void> {
  await page.keyboard.type(text)
  await lands(page, landing, () => page.keyboard.press("Enter"))
}

/** The password form of the sign-in page, submitted with Enter; `landing` is where it must end. */
async function signIn(page: Page, email: string, landing: string): Promise<void> {
  await page.goto(url("/auth/signin"))
  await page.getByLabel("Email address").fill(email)
  await page.getByLabel("Password").fill(password)
  await lands(page, landing, () => page.getByLabel("Password").press("Enter"))
}

/** The sign-out page's button. */
async function signOut(page: Page): Promise<void> {
  await page.goto(url("/auth/signout"))
  await lands(page, home(), () => page.getByRole("button", { name: "Sign out" }).click())
  expect((await shown(page)).session).toBeNull()
}

/** The setup page of a signed-in browser: the secret as the page shows it, checked against the otpauth link's. */
async function readSecret(page: Page): Promise<AuthenticatorApp> {
  const text = (await page.locator("#twofactor-secret").innerText()).replace(/\s+/g, "")
  const href = await page.getByRole("link", { name: "Open in an authenticator app on this device" }).getAttribute("href")
  expect(href).toMatch(/^otpauth:\/\/totp\//)
  expect(new URL(href!).searchParams.get("secret")).toBe(text)
  return new AuthenticatorApp(decodeBase32IgnorePadding(text))
}

/** Turns an authenticator app on from the setup page, typing its code; returns the app and the recovery codes shown. */
async function enrol(page: Page, email: string): Promise<{ authenticator: AuthenticatorApp; codes: string[] }> {
  await signIn(page, email, home())
  await page.goto(url("/auth/two-factor/setup"))
  const authenticator = await readSecret(page)
  await page.getByLabel("Code from the app").focus()
  await page.keyboard.type(authenticator.code())
  // The recovery codes are the answer to the POST itself: the URL stays that of the setup page.
  await lands(page, url("/auth/two-factor/setup"), () => page.keyboard.press("Enter"))
  expect(await page.locator("h1").innerText()).toBe("Save your recovery codes")
  const codes = await page.locator("ul.codes li code").allInnerTexts()
  return { authenticator, codes }
}

describe("two-factor sign-in in Chromium", () => {
  it("enrolment: the QR code and the key agree, the typed code turns it on, and ten recovery codes are shown once", async () => {
    const page = await newPage()
    const email = await newUser()
    await signIn(page, email, home())
    expect(await shown(page)).toEqual({ heading: `Signed in as ${email}`, session: expect.objectContaining({ factors: ["password"] }) as unknown })

    await page.goto(url("/auth/two-factor/setup"))
    expect(await page.locator("h1").innerText()).toBe("Set up two-factor authentication")
    const qr = page.getByRole("img", { name: "QR code to add your account to an authenticator app" })
    expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe("svg")
    expect(await qr.isVisible()).toBe(true)
    expect((await qr.boundingBox())!.width).toBeGreaterThan(100)
    expect(await page.locator("svg path").getAttribute("d")).toMatch(/^M\d+ \d+h\d+/)
    const authenticator = await readSecret(page)
    expect(authenticator.key).toHaveLength(20)

    const field = page.getByLabel("Code from the app")
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code")
    await field.focus()
    await page.keyboard.type(authenticator.code())
    await lands(page, url("/auth/two-factor/setup"), () => page.keyboard.press("Enter"))
    expect(await page.locator("h1").innerText()).toBe("Save your recovery codes")
    const codes = await page.locator("ul.codes li code").allInnerTexts()
    expect(codes).toHaveLength(10)
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/)
    expect(new Set(codes).size).toBe(10)
    expect(await page.getByLabel("All the codes, to copy").inputValue()).toBe(codes.join("\n"))

    // Shown once: the setup page now manages what is on.
    await page.goto(url("/auth/two-factor/setup"))
    expect(await page.locator("h1").innerText()).toBe("Two-factor authentication")
    expect(await page.locator("ul.codes").count()).toBe(0)
    expect(await page.getByText("Recovery codes left: 10").isVisible()).toBe(true)
  })

  for (const javaScriptEnabled of [true, false]) {
    it(`sign-in with the app's code, JavaScript ${javaScriptEnabled ? "on" : "off"}: the password leads to the challenge, the typed code signs in; the next sign-in is asked again`, async () => {
      const page = await newPage(javaScriptEnabled)
      const email = await newUser()
      const { authenticator } = await enrol(page, email)
      await signOut(page)

      await signIn(page, email, challenge())
      expect(await page.locator("h1").innerText()).toBe("Two-factor authentication")
      expect(await (await page.request.get(url("/auth/session"))).json()).toBeNull()
      const field = page.getByLabel("Verification code")
      expect(await field.getAttribute("autocomplete")).toBe("one-time-code")
      expect(await focused(page)).toBe("input#twofactor-code")
      // The enrolment used this step's code: the next step's is inside the drift and not used yet.
      await typeAndEnter(page, authenticator.code(1), home())
      expect(await shown(page)).toEqual({ heading: `Signed in as ${email}`, session: expect.objectContaining({ factors: ["password", "totp"] }) as unknown })

      // The box was not ticked: this browser is not remembered.
      await signOut(page)
      await signIn(page, email, challenge())
    })
  }

  it("recovery: a recovery code signs in once; the same code in another browser is refused with an alert", async () => {
    const page = await newPage()
    const email = await newUser()
    const { codes } = await enrol(page, email)
    await signOut(page)

    await signIn(page, email, challenge())
    await lands(page, url("/auth/two-factor?method=recovery"), () => page.getByRole("link", { name: "Use a recovery code instead" }).click())
    expect(await focused(page)).toBe("input#twofactor-recovery-code")
    await typeAndEnter(page, codes[0]!, home())
    expect(await shown(page)).toEqual({ heading: `Signed in as ${email}`, session: expect.objectContaining({ factors: ["password", "recovery-code"] }) as unknown })

    const other = await newPage()
    await signIn(other, email, challenge())
    await lands(other, /method=recovery/, () => other.getByRole("link", { name: "Use a recovery code instead" }).click())
    await other.getByLabel("Recovery code").focus()
    await typeAndEnter(other, codes[0]!, url("/auth/two-factor?method=recovery&error=InvalidCode"))
    const alert = other.getByRole("alert")
    expect(await alert.isVisible()).toBe(true)
    expect(await alert.innerText()).toBe("That code is not right. Check it and try again.")
    expect(await other.getByLabel("Recovery code").getAttribute("aria-invalid")).toBe("true")
    expect((await shown(other)).session).toBeNull()
  })

  it("remember this device: ticked with Tab and Space, the next sign-in in this browser skips the challenge; another browser is asked", async () => {
    const page = await newPage()
    const email = await newUser()
    const { authenticator } = await enrol(page, email)
    await signOut(page)

    await signIn(page, email, challenge())
    await page.keyboard.type(authenticator.code(1))
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("input#twofactor-remember")
    const remember = page.getByLabel(/^Don’t ask again on this device for /)
    expect(await remember.isChecked()).toBe(false)
    await page.keyboard.press("Space")
    expect(await remember.isChecked()).toBe(true)
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("button:Continue")
    await lands(page, home(), () => page.keyboard.press("Enter"))
    expect((await shown(page)).session?.factors).toEqual(["password", "totp"])
    expect((await page.context().cookies()).map((c) => c.name)).toContain("sesame.remembered-device")

    await signOut(page)
    await signIn(page, email, home())
    expect(await shown(page)).toEqual({
      heading: `Signed in as ${email}`,
      session: expect.objectContaining({ factors: ["password", "remembered-device"] }) as unknown,
    })

    const other = await newPage()
    await signIn(other, email, challenge())
    expect((await shown(other)).session).toBeNull()
  })

  it("keyboard only: the sign-in form and the challenge with Tab and Enter, to the recovery form and back", async () => {
    const page = await newPage()
    const email = await newUser()
    const { authenticator } = await enrol(page, email)
    await signOut(page)

    await page.goto(url("/auth/signin"))
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("input#signin-email")
    await page.keyboard.type(email)
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("input#signin-password")
    await typeAndEnter(page, password, challenge())

    // The code field has the focus; Tab goes through the form, then to the link to the recovery form.
    const order: string[] = [await focused(page)]
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab")
      order.push(await focused(page))
    }
    expect(order).toEqual(["input#twofactor-code", "input#twofactor-remember", "button:Continue", "a:Use a recovery code instead"])
    await lands(page, /method=recovery/, () => page.keyboard.press("Enter"))
    expect(await focused(page)).toBe("input#twofactor-recovery-code")
    for (let i = 0; i < 3; i++) await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("a:Use a code from your authenticator app")
    await lands(page, challenge(), () => page.keyboard.press("Enter"))

    expect(await focused(page)).toBe("input#twofactor-code")
    await page.keyboard.type(authenticator.code(1))
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    expect(await focused(page)).toBe("button:Continue")
    await lands(page, home(), () => page.keyboard.press("Enter"))
    expect((await shown(page)).session?.factors).toEqual(["password", "totp"])
  })

  it("an email code as the first factor: typed on the check-your-email page it signs in; another browser cannot use it", async () => {
    const page = await newPage()
    const email = "grace@example.com"
    await page.goto(url("/auth/signin"))
    await page.getByLabel("Email address").fill(email)
    await lands(page, url("/auth/verify-request?provider=email&type=email"), () => page.getByRole("button", { name: "Sign in with Email" }).click())
    expect(await page.locator("h1").innerText()).toBe("Check your email")
    const sent = app.emails.filter((m) => m.identifier === email)
    expect(sent).toHaveLength(1)
    const code = sent[0]!.code!
    expect(code).toMatch(/^[0-9]{6}$/)
    expect(sent[0]!.message.text).toContain(code)
    const field = page.getByLabel("Sign-in code")
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code")

    // Another browser, with the code but not the cookie of the browser that asked: no form, and
    // posting the code anyway is refused, without spending it.
    const other = await newPage()
    await other.goto(page.url())
    expect(await other.locator("h1").innerText()).toBe("Check your email")
    expect(await other.getByLabel("Sign-in code").count()).toBe(0)
    const { csrfToken } = (await (await other.request.get(url("/auth/csrf"))).json()) as { csrfToken: string }
    const posted = await other.request.post(url("/auth/callback/email"), { form: { csrfToken, code } })
    expect(new URL(posted.url()).pathname).toBe("/auth/error")
    expect(new URL(posted.url()).searchParams.get("error")).toBe("Verification")
    expect((await shown(other)).session).toBeNull()

    await field.focus()
    await typeAndEnter(page, code, home())
    expect(await shown(page)).toEqual({ heading: `Signed in as ${email}`, session: expect.objectContaining({ factors: ["email"] }) as unknown })
  })
})
