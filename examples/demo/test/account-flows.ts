/**
 * The demo's account management and brute-force defence in the browser: linking the dev IdP to
 * the demo user, unlinking it, deleting the user; and wrong passwords in a row until the throttle
 * refuses one (the sixth, unless the machine is slow), answered like the others.
 */
import { expect } from "vitest"
import type { Browser, Page, Response } from "playwright-core"
import { demoAccount, formWithButton, openSignIn, shot, signedInDemoUser, signInWithPassword, signOut, status } from "./flows.js"

/** Account management: link the IdP while signed in with the password, unlink it, delete the user. */
export async function accountFlow(browser: Browser, origin: string, idpIssuer: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)
  const accounts = page.getByRole("region", { name: "Accounts" })
  await expect.poll(() => accounts.getByTestId("password-way-in").count()).toBe(1)

  // Linking is a sign-in with the IdP while signed in: its login page, then home as the same user.
  await accounts.getByRole("button", { name: "Link Sesame Dev IdP" }).click()
  await page.waitForURL((url) => url.origin === idpIssuer)
  await page.locator('button[name="account"][value="ada"]').click()
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Demo User")
  const rows = page.getByTestId("accounts").locator("tbody tr")
  await expect.poll(() => rows.count()).toBe(1)
  expect(await rows.first().textContent()).toContain("Sesame Dev IdP")
  // Both ways in: the password and the linked IdP account.
  expect(await accounts.getByTestId("password-way-in").textContent()).toContain("password")
  await shot(page, "home-accounts-linked")

  // The password (and the emailed link) remain, so Sesame lets the IdP account go.
  await accounts.getByRole("button", { name: /^Unlink Sesame Dev IdP account / }).click()
  await expect.poll(() => page.getByTestId("accounts").count()).toBe(0)
  expect(await page.getByTestId("notice").count()).toBe(0)
  await shot(page, "home-accounts-unlinked")

  // Deleting asks first; Cancel (a link home) keeps everything.
  await accounts.getByRole("button", { name: "Delete account…" }).click()
  await page.waitForURL((url) => url.searchParams.get("confirm") === "delete-account")
  await shot(page, "home-confirm-delete")
  await page.getByTestId("confirm-delete").getByRole("link", { name: "Cancel" }).click()
  await page.waitForURL((url) => url.search === "")
  expect(await page.getByTestId("confirm-delete").count()).toBe(0)

  await accounts.getByRole("button", { name: "Delete account…" }).click()
  await page.getByTestId("confirm-delete").getByRole("button", { name: "Yes, delete my account" }).click()
  await expect.poll(() => status(page)).toContain("not signed in")
  expect(await page.getByTestId("notice").textContent()).toContain("Your account was deleted")
  await shot(page, "home-account-deleted")

  // The demo account comes back at the next sign-in with its password, without the IdP account.
  await signInWithPassword(page)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Demo User")
  expect(await page.getByTestId("accounts").count()).toBe(0)
  await signOut(page)
  await context.close()
}

const isPasswordPost = (response: Response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/api/auth/callback/password"

/** One password typed into the sign-in page that is open; the answer to its POST. */
async function tryPassword(page: Page, password: string): Promise<Response> {
  const form = formWithButton(page, "Sign in with Password")
  await form.locator('input[name="email"]').fill(demoAccount.email)
  await form.locator('input[name="password"]').fill(password)
  const answer = page.waitForResponse(isPasswordPost)
  const loaded = page.waitForEvent("load")
  await form.getByRole("button", { name: "Sign in with Password", exact: true }).click()
  const response = await answer
  await loaded
  return response
}

/**
 * Throttling: five wrong passwords cost nothing; the next attempt made before its wait is over
 * (the sixth, at once after them) is refused without being checked, and the browser sees the same
 * page as for a wrong password (only `Retry-After` tells them apart). Once that wait is over, the
 * right password signs in.
 */
export async function throttleFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  await openSignIn(page)
  const answers: { retryAfter: string | null; error: string | null; shown: string | null }[] = []
  // Five free failures; from the sixth the wait doubles (1 s, 2 s, 4 s…), so on a slow machine,
  // where an attempt may take longer than the first wait, a later attempt is the one refused.
  for (let attempt = 1; attempt <= 12; attempt++) {
    const response = await tryPassword(page, `guess number ${attempt}`)
    answers.push({ retryAfter: await response.headerValue("retry-after"), error: new URL(page.url()).searchParams.get("error"), shown: await page.getByRole("alert").textContent() })
    if (answers.at(-1)!.retryAfter !== null) break
  }
  await shot(page, "signin-throttled")
  expect(answers.map((answer) => answer.error)).toEqual(Array(answers.length).fill("CredentialsSignin"))
  // The same message every time: the page does not tell a throttled attempt from a wrong password.
  expect(new Set(answers.map((answer) => answer.shown)).size).toBe(1)
  expect(answers[0]!.shown).toBeTruthy()
  expect(answers.slice(0, 5).map((answer) => answer.retryAfter)).toEqual(Array(5).fill(null))
  expect(answers.length).toBeGreaterThan(5)
  const retryAfter = Number(answers.at(-1)!.retryAfter)
  expect(retryAfter).toBeGreaterThanOrEqual(1)

  await page.waitForTimeout(retryAfter * 1000)
  await tryPassword(page, demoAccount.password)
  await expect.poll(() => status(page)).toContain("Demo User")
  await signOut(page)
  await context.close()
}
