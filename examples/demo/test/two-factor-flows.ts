/**
 * Two-factor sign-in in the browser, on Sesame's built-in pages and the demo's home page: a new
 * password user turns on an authenticator app from the home page's link (the test is the app: it
 * reads the key from the settings page and computes the codes), keeps the ten recovery codes,
 * then signs in with a code, with a recovery code, and with "remember this device" ticked, after
 * which that browser (and only that one) skips the code. And the emailed one-time code as a first
 * factor, typed on the "check your email" page.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { expect } from "vitest"
import type { Browser, Page } from "playwright-core"
import { formWithButton, openEmailedLink, openSignIn, shot, signInWithPassword, signOut, status } from "./flows.js"

const stepMs = 30_000

/**
 * The authenticator app. Sesame takes a code once per 30-second step per user, and never one of
 * an older step after a newer one, so each code here is of a step not used yet: this one, else the
 * next (within the one step of drift Sesame allows), else it waits for the clock to catch up.
 */
class AuthenticatorApp {
  private lastStep = -1

  constructor(private readonly key: Uint8Array) {}

  /** The app that scanned `uri` (`otpauth://totp/…?secret=BASE32…`). */
  static fromUri(uri: string): AuthenticatorApp {
    const secret = new URL(uri).searchParams.get("secret")
    expect(secret, "the otpauth link carries the secret").toMatch(/^[A-Z2-7]+=*$/)
    return new AuthenticatorApp(decodeBase32IgnorePadding(secret!))
  }

  async nextCode(): Promise<string> {
    const current = () => Math.floor(Date.now() / stepMs)
    const step = Math.max(current(), this.lastStep + 1)
    // Wait until `step` is at most one ahead; half a second more, so that it surely is.
    if (step > current() + 1) await new Promise((resolve) => setTimeout(resolve, (step - 1) * stepMs - Date.now() + 500))
    this.lastStep = step
    return this.codeFor(step)
  }

  /** A code long expired: wrong, whatever the time. */
  staleCode(): string {
    return this.codeFor(Math.floor(Date.now() / stepMs) - 20)
  }

  private codeFor(step: number): string {
    return generateHOTP(this.key, BigInt(step), 6)
  }
}

/** The home page's two-factor section. */
const twoFactorSection = (page: Page) => page.getByRole("region", { name: "Two-factor authentication" })

/** A sign-in with the password that must stop at the second factor's challenge. */
async function passwordThenChallenge(page: Page, password: string, email: string): Promise<void> {
  await signInWithPassword(page, password, email)
  await page.waitForURL((url) => url.pathname === "/api/auth/two-factor")
  await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Two-factor authentication")
}

/** The challenge page's code form: a code typed, "remember this device" ticked if asked, sent. */
async function typeCode(page: Page, code: string, remember = false): Promise<void> {
  await page.getByLabel("Verification code").fill(code)
  if (remember) await page.getByLabel("Don’t ask again on this device for 30 days").check()
  await page.getByRole("button", { name: "Continue" }).click()
}

/** Sign-up on the built-in page, then the emailed confirmation link with the password: signed in at home. */
async function signUp(page: Page, name: string, email: string, password: string): Promise<void> {
  await openSignIn(page)
  await page.getByRole("link", { name: "No account yet? Create one" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signup")
  await page.locator('input[name="name"]').fill(name)
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="password"]').fill(password)
  await page.getByRole("button", { name: "Create account" }).click()
  await page.waitForURL((url) => url.searchParams.get("sent") === "1")
  await openEmailedLink(page, email, "/api/auth/verify-email/password")
  await page.locator('input[name="password"]').fill(password)
  await page.getByRole("button", { name: "Confirm and sign in" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(name)
}

export async function twoFactorFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  const email = `hedy-${Date.now()}@example.com`
  const password = "frequency hopping spread spectrum"
  await signUp(page, "Hedy Lamarr", email, password)

  // Off at first; the home page links to the built-in settings page.
  const section = twoFactorSection(page)
  expect(await section.getByTestId("two-factor-status").getAttribute("data-enabled")).toBe("false")
  await shot(page, "home-two-factor-off")
  await section.getByRole("link", { name: "Turn on two-factor authentication" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/two-factor/setup")

  // The QR code, the key as text and as an otpauth link: the same key.
  expect(await page.getByRole("img", { name: "QR code to add your account to an authenticator app" }).count()).toBe(1)
  const uri = await page.getByRole("link", { name: "Open in an authenticator app on this device" }).getAttribute("href")
  expect(uri).toMatch(/^otpauth:\/\/totp\//)
  const typed = (await page.locator("#twofactor-secret").textContent())!.replace(/\s+/g, "")
  expect(new URL(uri!).searchParams.get("secret")!.replace(/=+$/, "")).toBe(typed)
  const app = AuthenticatorApp.fromUri(uri!)
  await shot(page, "two-factor-setup")

  // A wrong code turns nothing on; the app's code does, and the recovery codes are shown once.
  await page.getByLabel("Code from the app").fill(app.staleCode())
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/two-factor/setup" && url.searchParams.get("error") === "InvalidCode")
  expect(await page.getByRole("alert").textContent()).toContain("That code is not right")
  await page.getByLabel("Code from the app").fill(await app.nextCode())
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click()
  await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Save your recovery codes")
  const codes = await page.locator("ul.codes li code").allTextContents()
  expect(codes).toHaveLength(10)
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/)
  expect(new Set(codes).size).toBe(10)
  expect(await page.getByLabel("All the codes, to copy").inputValue()).toBe(codes.join("\n"))
  await shot(page, "two-factor-recovery-codes")

  // The settings page says it is on; "Done" leads home, which says so too.
  await page.getByRole("link", { name: "I have saved them" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/two-factor/setup")
  expect(await page.getByText("Recovery codes left: 10").count()).toBe(1)
  await shot(page, "two-factor-settings-on")
  await page.getByRole("link", { name: "Done", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/")
  expect(await section.getByTestId("two-factor-status").getAttribute("data-enabled")).toBe("true")
  expect(await section.getByTestId("two-factor-status").textContent()).toContain("a code from an authenticator app")
  expect(await section.getByTestId("recovery-codes-left").textContent()).toBe("10 recovery codes left.")
  await shot(page, "home-two-factor-on")
  await signOut(page)

  // The password alone now stops at the challenge: no session yet. A wrong code is refused; the
  // app's next code signs in.
  await passwordThenChallenge(page, password, email)
  await page.goto("/")
  expect(await status(page)).toContain("not signed in")
  await passwordThenChallenge(page, password, email)
  await shot(page, "two-factor-challenge")
  await typeCode(page, app.staleCode())
  await page.waitForURL((url) => url.pathname === "/api/auth/two-factor" && url.searchParams.get("error") === "InvalidCode")
  expect(await page.getByRole("alert").textContent()).toContain("That code is not right")
  await typeCode(page, await app.nextCode())
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Hedy Lamarr")
  expect(await section.getByTestId("two-factor-status").getAttribute("data-enabled")).toBe("true")
  await signOut(page)

  // A recovery code instead: it signs in, and one fewer is left.
  await passwordThenChallenge(page, password, email)
  await page.getByRole("link", { name: "Use a recovery code instead" }).click()
  await page.waitForURL((url) => url.searchParams.get("method") === "recovery")
  await page.getByLabel("Recovery code").fill(codes[0]!)
  await shot(page, "two-factor-recovery")
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Hedy Lamarr")
  expect(await section.getByTestId("recovery-codes-left").textContent()).toBe("9 recovery codes left.")
  await signOut(page)

  // "Remember this device": once ticked, this browser signs in with the password alone.
  await passwordThenChallenge(page, password, email)
  await typeCode(page, await app.nextCode(), true)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Hedy Lamarr")
  await signOut(page)
  await signInWithPassword(page, password, email)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Hedy Lamarr")
  await signOut(page)

  // Another browser is not remembered: it is asked for the code.
  const otherContext = await browser.newContext({ baseURL: origin })
  const other = await otherContext.newPage()
  await passwordThenChallenge(other, password, email)
  await otherContext.close()
  await context.close()
}

/**
 * The emailed code as a first factor: the email has a link and a code; the code, typed on the
 * "check your email" page in the browser that asked, signs in. The address has no second factor.
 */
export async function emailCodeFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  const email = `katherine-${Date.now()}@example.com`
  await openSignIn(page)
  const form = formWithButton(page, "Sign in with Email")
  await form.locator('input[name="email"]').fill(email)
  await form.getByRole("button", { name: "Sign in with Email", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/verify-request")
  await shot(page, "verify-request-code")

  // The mailbox in another tab of the same browser, as a person would keep the page open.
  const mailbox = await context.newPage()
  await mailbox.goto("/dev/mailbox")
  const message = mailbox.getByTestId("message").filter({ hasText: email }).first()
  await expect.poll(() => message.count()).toBe(1)
  const text = (await message.locator("pre").textContent())!
  // The code stands on a line of its own; the link is beside it.
  const code = /^(\d{6})$/m.exec(text)?.[1]
  expect(code, "the email carries a six-digit code").toBeDefined()
  expect(text).toContain("/api/auth/callback/nodemailer")
  await mailbox.close()

  await page.getByLabel("Sign-in code").fill(code!)
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(email)
  expect(await twoFactorSection(page).getByTestId("two-factor-status").getAttribute("data-enabled")).toBe("false")
  await signOut(page)
  await context.close()
}
