/**
 * The demo's admin tools (`@sesame/admin`), security log (`@sesame/audit`) and built-in account page,
 * driven as the demo account, which is the demo's admin: the home page's security log; the account
 * page from its link; the admin pages from theirs;
 * Grace (who signed in with the identity provider earlier in the run) found by the search form;
 * the app seen as Grace, with the banner on the built-in pages, and back to the demo account;
 * Grace suspended, her sign-in through the identity provider sent to the page that says so, then
 * restored; a new user created with a link to set a password, which they follow from the mailbox
 * and sign in with.
 */
import { expect } from "vitest"
import type { Browser } from "playwright-core"
import { demoAccount, openEmailedLink, openSignIn, shot, signedInDemoUser, signOut, status, submitPassword } from "./flows.js"

export async function adminFlow(browser: Browser, origin: string, idpIssuer: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)

  // The security log on the home page: this very sign-in is there.
  await expect.poll(() => page.getByTestId("security-log").locator("li").first().textContent()).toContain("sign-in")

  // The built-in account page, from the home page's link.
  await page.getByTestId("account-page-link").click()
  await page.waitForURL((url) => url.pathname === "/api/auth/account")
  expect(await page.locator("h1").textContent()).toBe("Your account")
  await shot(page, "account-page")
  await page.goto("/")
  await page.getByTestId("admin-link").getByRole("link", { name: "open the admin tools" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/admin")
  expect(await page.locator("h1").textContent()).toBe("Users")

  // Find Grace.
  await page.getByLabel("Address or name").fill("grace")
  await page.getByRole("button", { name: "Search" }).click()
  await page.waitForURL((url) => url.searchParams.get("q") === "grace")
  expect(await page.locator("table a").allInnerTexts()).toEqual(["grace@example.com"])
  await shot(page, "admin-users")
  await page.locator("table a").first().click()
  await page.waitForURL((url) => url.pathname === "/api/auth/admin/view")
  expect(await page.locator("h1").textContent()).toBe("grace@example.com")
  await shot(page, "admin-user")

  // See the app as Grace: the home page says Grace, the built-in pages carry the banner.
  await page.getByRole("button", { name: /See the app as this user/ }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Grace Hopper")
  await page.goto("/api/auth/admin/acting")
  expect(await page.locator("p.acting").textContent()).toContain(`You are seeing the app as grace@example.com, on behalf of ${demoAccount.email}`)
  await shot(page, "admin-acting")
  await page.getByRole("button", { name: "Stop and return to your own account" }).click()
  await page.waitForURL((url) => url.searchParams.get("done") === "impersonate")
  expect(await page.locator('.notice[role="status"]').textContent()).toBe("You are back to your own account.")

  // Suspend Grace: her next sign-in lands on the page that says so.
  await page.getByLabel("Reason (seen by admins only)").fill("testing the demo")
  await page.getByRole("button", { name: "Suspend", exact: true }).click()
  await page.waitForURL((url) => url.searchParams.get("done") === "suspend")
  const grace = await browser.newContext({ baseURL: origin })
  const gracePage = await grace.newPage()
  await openSignIn(gracePage)
  await gracePage.locator('form[action$="/api/auth/signin/dev-idp"]').getByRole("button").click()
  await gracePage.waitForURL((url) => url.origin === idpIssuer)
  await gracePage.locator('button[name="account"][value="grace"]').click()
  await gracePage.waitForURL((url) => url.pathname === "/api/auth/admin/suspended")
  expect(await gracePage.locator("h1").textContent()).toBe("Account suspended")
  await shot(gracePage, "admin-suspended")
  await grace.close()

  // Restored: she may sign in again. Her page also says what the other capabilities keep for her.
  await page.getByRole("button", { name: "Lift the suspension" }).click()
  await page.waitForURL((url) => url.searchParams.get("done") === "restore")
  expect(await page.getByRole("heading", { name: "Two-factor authentication" }).count()).toBe(1)

  // A new user with a link to set a password: from the mailbox, they choose one and sign in with it.
  await page.getByRole("link", { name: "Back to the users" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/admin")
  await page.getByLabel("Email address").fill("newcomer@example.com")
  await page.getByLabel("Email the user a link to set a password").check()
  await page.getByRole("button", { name: "Create the user" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/admin/view" && url.searchParams.get("done") === "create")
  expect(await page.locator("h1").textContent()).toBe("newcomer@example.com")
  await shot(page, "admin-created")
  const newcomer = await browser.newContext({ baseURL: origin })
  const newcomerPage = await newcomer.newPage()
  await openEmailedLink(newcomerPage, "newcomer@example.com", "/api/auth/reset-password/password")
  await newcomerPage.getByLabel("New password").fill("a newcomer's own pass phrase")
  await newcomerPage.getByRole("button", { name: "Save the new password" }).click()
  await newcomerPage.waitForURL((url) => url.searchParams.get("notice") === "PasswordReset")
  await submitPassword(newcomerPage, "newcomer@example.com", "a newcomer's own pass phrase")
  await newcomerPage.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(newcomerPage)).toContain("newcomer@example.com")
  await newcomer.close()
  await page.goto("/")
  await signOut(page)
  await context.close()
}
