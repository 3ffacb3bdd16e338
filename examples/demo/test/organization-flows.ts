/**
 * Organizations in the demo (`@sesame/organizations`): A creates "Acme", makes it active and
 * invites B as an admin and C as a member; the invitations arrive in the mailbox. B, signed in in
 * another browser, accepts from the link; A sees B among the members. B makes Acme active and
 * opens the reports (admins only). C opens the link signed out, signs in and comes back to it,
 * accepts, and is refused the reports: a member, not an admin.
 */
import { expect } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { formWithButton, openEmailedLink, openSignIn, shot, signOut, status } from "./flows.js"

/** A sign-in with an emailed link (a proven address, as accepting an invitation needs), from the sign-in page that is open. */
async function signInWithEmailHere(page: Page, address: string): Promise<void> {
  const form = formWithButton(page, "Sign in with Email")
  await form.locator('input[name="email"]').fill(address)
  await form.getByRole("button", { name: "Sign in with Email", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/verify-request")
  await openEmailedLink(page, address, "/api/auth/callback/nodemailer")
  await page.locator('form button[type="submit"]').click()
}

async function newUser(browser: Browser, origin: string, address: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  await openSignIn(page)
  await signInWithEmailHere(page, address)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(address)
  return { context, page }
}

const notice = (page: Page) => page.getByTestId("notice").textContent()

/** On /organizations: the organization called `name` made active. */
async function makeActive(page: Page, name: string): Promise<void> {
  await page.goto("/organizations")
  await page.getByRole("button", { name: `Make active: ${name}` }).click()
  await expect.poll(() => notice(page)).toContain("now your active one")
  await expect.poll(() => page.getByTestId("active-organization").textContent()).toBe(name)
}

/** The invitation link emailed to `address`, as the mailbox page shows it. */
async function invitationLink(page: Page, address: string): Promise<string> {
  await page.goto("/dev/mailbox")
  const link = page.getByTestId("message").filter({ hasText: address }).locator('a[href*="/organizations/accept"]').first()
  await expect.poll(() => link.count()).toBe(1)
  return (await link.getAttribute("href"))!
}

async function invite(page: Page, address: string, role: "admin" | "member"): Promise<void> {
  const form = page.getByTestId("invite")
  await form.getByLabel("Email address").fill(address)
  await form.getByLabel("Role").selectOption(role)
  await form.getByRole("button", { name: "Send invitation" }).click()
  await expect.poll(() => notice(page)).toContain("invitation was emailed")
  await expect.poll(() => page.getByTestId("invitations").textContent()).toContain(address)
}

export async function organizationFlow(browser: Browser, origin: string): Promise<void> {
  const stamp = Date.now()
  const [a, b, c] = ["ada", "bob", "cy"].map((name) => `${name}-${stamp}@example.com`) as [string, string, string]

  // A creates Acme (as its owner), makes it active, invites B as an admin and C as a member.
  const first = await newUser(browser, origin, a)
  await first.page.getByRole("link", { name: "Your organizations" }).click()
  await first.page.waitForURL((url) => url.pathname === "/organizations")
  await first.page.getByLabel("New organization’s name").fill("Acme")
  await first.page.getByRole("button", { name: "Create organization" }).click()
  await expect.poll(() => notice(first.page)).toContain("organization was created")
  await expect.poll(() => first.page.getByTestId("organizations").textContent()).toContain("Acme (owner)")
  await makeActive(first.page, "Acme")
  await invite(first.page, b, "admin")
  await invite(first.page, c, "member")
  await shot(first.page, "organizations-owner")

  // B, in a second browser: the link from the mailbox, then Accept.
  const second = await newUser(browser, origin, b)
  await openEmailedLink(second.page, b, "/organizations/accept")
  await expect.poll(() => second.page.getByTestId("invitation").textContent()).toMatch(/invited to Acme as admin/)
  await shot(second.page, "organizations-accept")
  await second.page.getByRole("button", { name: "Accept the invitation" }).click()
  await second.page.waitForURL((url) => url.pathname === "/organizations")
  await expect.poll(() => notice(second.page)).toContain("You joined")
  expect(await second.page.getByTestId("organizations").textContent()).toContain("Acme (admin)")

  // A sees B among the members, and B's invitation is no longer pending.
  await first.page.goto("/organizations")
  await expect.poll(() => first.page.getByTestId("members").textContent()).toContain(b)
  expect(await first.page.getByTestId("invitations").textContent()).not.toContain(b)

  // The plugin's built-in pages: B's organizations there, then Acme's members, B among them as an admin.
  await second.page.goto("/organizations")
  await second.page.getByTestId("built-in-organization-pages").click()
  await second.page.waitForURL((url) => url.pathname === "/api/auth/organization")
  await expect.poll(() => second.page.locator("h1").textContent()).toBe("Your organizations")
  await second.page.getByRole("link", { name: "Members of Acme" }).click()
  await second.page.waitForURL((url) => url.pathname === "/api/auth/organization/manage")
  await expect.poll(() => second.page.locator("h1").textContent()).toBe("Acme")
  expect(await second.page.locator(".rows").first().textContent()).toContain(`${b.split("@")[0]}`)
  await shot(second.page, "organizations-built-in-manage")

  // B makes Acme active: the header names it, and the reports open.
  await makeActive(second.page, "Acme")
  await second.page.goto("/")
  await expect.poll(() => second.page.getByTestId("home-organization").textContent()).toContain("Active organization: Acme")
  await second.page.goto("/organizations/reports")
  await expect.poll(() => second.page.getByTestId("reports").textContent()).toContain("Acme")

  // C opens the link signed out: the sign-in page, then back to the invitation.
  const third = await browser.newContext({ baseURL: origin })
  const page = await third.newPage()
  const link = await invitationLink(page, c)
  await page.goto(link)
  await page.waitForURL((url) => url.pathname === "/api/auth/signin" && (url.searchParams.get("callbackUrl") ?? "").startsWith("/organizations/accept?token="))
  await signInWithEmailHere(page, c)
  await page.waitForURL((url) => url.pathname === "/organizations/accept")
  await expect.poll(() => page.getByTestId("invitation").textContent()).toMatch(/invited to Acme as member/)
  await page.getByRole("button", { name: "Accept the invitation" }).click()
  await page.waitForURL((url) => url.pathname === "/organizations")
  // A member (reads reports) but not an admin: refused.
  await makeActive(page, "Acme")
  await page.goto("/organizations/reports")
  await expect.poll(() => page.getByTestId("reports-refused").textContent()).toContain("You need the admin role in Acme")
  expect(await page.getByTestId("reports").count()).toBe(0)
  await shot(page, "organizations-reports-refused")
  // The used link works no more.
  await page.goto(link)
  await expect.poll(() => page.getByTestId("invitation").textContent()).toContain("cannot be used")

  await signOut(page)
  await Promise.all([first.context.close(), second.context.close(), third.close()])
}
