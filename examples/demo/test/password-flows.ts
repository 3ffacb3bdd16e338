/**
 * A password account from start to end in the browser, on Sesame's built-in pages and the demo's
 * mailbox and home page: sign-up, the confirmation email, confirming with the password (signed
 * in), a sign-in with the password, changing it on the home page (another browser's session
 * ends), a sign-in with the new one, and a forgotten password reset through its emailed link.
 */
import { expect } from "vitest"
import type { Browser, Page } from "playwright-core"
import { openEmailedLink, openSignIn, shot, signInWithPassword, signOut, status, submitPassword } from "./flows.js"

const passwords = { first: "apollo guidance computer", second: "lunar module descent", third: "sea of tranquility" }

/** The home page's password form filled in and sent; resolves once it says `expected`. */
async function changePassword(page: Page, current: string, next: string, expected: string): Promise<void> {
  const section = page.getByRole("region", { name: "Password" })
  const form = section.getByTestId("change-password")
  await form.getByLabel("Current password").fill(current)
  await form.getByLabel("New password").fill(next)
  await form.getByRole("button", { name: "Change password" }).click()
  await expect.poll(() => section.getByTestId("password-result").textContent()).toContain(expected)
}

export async function passwordAccountFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  const address = `margaret-${Date.now()}@example.com`

  // Sign-up: the link under the sign-in page's password form, then "check your email".
  await openSignIn(page)
  await page.getByRole("link", { name: "No account yet? Create one" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signup")
  await page.locator('input[name="name"]').fill("Margaret Hamilton")
  await page.locator('input[name="email"]').fill(address)
  await page.locator('input[name="password"]').fill(passwords.first)
  await shot(page, "signup")
  await page.getByRole("button", { name: "Create account" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signup" && url.searchParams.get("sent") === "1")
  expect(await page.getByRole("status").textContent()).toContain("We’ve sent an email")
  await shot(page, "signup-sent")

  // Not confirmed yet: the right password is refused, and a new link goes out (the second of the
  // three confirmation emails an address may get in 15 minutes).
  await signInWithPassword(page, passwords.first, address)
  await page.waitForURL((url) => url.searchParams.get("error") === "EmailNotVerified")
  await shot(page, "signin-email-not-verified")

  // The confirmation email, on the mailbox page; its link opens a page that asks for the password
  // chosen at sign-up (the link proves the mailbox, the password who signed up) and confirms.
  await openEmailedLink(page, address, "/api/auth/verify-email/password", "mailbox-confirm-address")
  await page.locator('input[name="password"]').fill(passwords.first)
  await shot(page, "verify-email")
  await page.getByRole("button", { name: "Confirm and sign in" }).click()
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Margaret Hamilton")
  const section = page.getByRole("region", { name: "Password" })
  expect(await section.getByTestId("change-password").count()).toBe(1)
  await shot(page, "home-password")
  await signOut(page)

  // A sign-in with the password; a second browser signs in too.
  await signInWithPassword(page, passwords.first, address)
  await expect.poll(() => status(page)).toContain("Margaret Hamilton")
  const otherContext = await browser.newContext({ baseURL: origin })
  const other = await otherContext.newPage()
  await signInWithPassword(other, passwords.first, address)
  await expect.poll(() => status(other)).toContain("Margaret Hamilton")

  // Changing it: a wrong current password changes nothing; the right one does, and the other
  // browser's session ends while this one stays signed in.
  await page.goto("/")
  await changePassword(page, "not my password", passwords.second, "Your current password is not right")
  await shot(page, "home-password-wrong")
  await changePassword(page, passwords.first, passwords.second, "1 other session was signed out")
  await shot(page, "home-password-changed")
  expect(await status(page)).toContain("Margaret Hamilton")
  await other.goto("/")
  expect(await status(other)).toContain("not signed in")
  await otherContext.close()
  await signOut(page)

  // The old password no longer works; the new one does.
  await signInWithPassword(page, passwords.first, address)
  await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
  await submitPassword(page, address, passwords.second)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Margaret Hamilton")
  await signOut(page)

  // Forgotten: a link by email, a page for the new password, then the sign-in page says so.
  await openSignIn(page)
  await page.getByRole("link", { name: "Forgot your password?" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/forgot-password")
  await page.locator('input[name="email"]').fill(address)
  await shot(page, "forgot-password")
  await page.getByRole("button", { name: "Email me a link" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/forgot-password" && url.searchParams.get("sent") === "1")
  await shot(page, "forgot-password-sent")
  await openEmailedLink(page, address, "/api/auth/reset-password/password", "mailbox-reset-password")
  await shot(page, "reset-password")
  await page.getByLabel("New password").fill(passwords.third)
  await page.getByRole("button", { name: "Save the new password" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signin" && url.searchParams.get("notice") === "PasswordReset")
  expect(await page.getByRole("status").filter({ hasText: "Your password was changed" }).count()).toBe(1)
  await shot(page, "signin-password-reset")
  await submitPassword(page, address, passwords.third)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Margaret Hamilton")
  await signOut(page)
  await context.close()
}
