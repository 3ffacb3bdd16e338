/**
 * The demo's browser flows: each sign-in method through Sesame's built-in pages, the home page's
 * accounts, passkeys and sessions, and revoking sessions.
 */
import { expect } from "vitest"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { describeViolations, runAxe, saveScreenshot } from "@sesame/testing"

export const demoAccount = { email: "demo@example.com", password: "sesame-demo" }

/** A screenshot kept as a test artefact, and no serious or critical accessibility finding. */
export async function shot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, "demo", name)
  const axe = await runAxe(page)
  const blocking = [...axe.byImpact.critical, ...axe.byImpact.serious]
  expect(blocking, `${name}: ${describeViolations(blocking)}`).toEqual([])
}
export const status = (page: Page) => page.getByTestId("status").textContent()

export async function openSignIn(page: Page): Promise<void> {
  await page.goto("/")
  await page.getByRole("link", { name: "Sign in" }).first().click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
}

/**
 * The sign-in page's form with the button of a sign-in method ("Sign in with Password", "… with
 * Email"): the method's own form, or the one form that asks for the address once for several.
 */
export const formWithButton = (page: Page, button: string): Locator => page.locator("form").filter({ has: page.getByRole("button", { name: button, exact: true }) })

/** The password form of the sign-in page that is open, filled in and sent. */
export async function submitPassword(page: Page, email: string, password: string): Promise<void> {
  const form = formWithButton(page, "Sign in with Password")
  await form.locator('input[name="email"]').fill(email)
  await form.locator('input[name="password"]').fill(password)
  await form.getByRole("button", { name: "Sign in with Password", exact: true }).click()
}

/** A sign-in with a password (the demo account's unless told) from the home page's "Sign in" link. */
export async function signInWithPassword(page: Page, password = demoAccount.password, email = demoAccount.email): Promise<void> {
  await openSignIn(page)
  await submitPassword(page, email, password)
}

/** Where the emailed links are: the newest message to `address` with a link whose path holds `path`. */
export async function openEmailedLink(page: Page, address: string, path: string, screenshot?: string): Promise<void> {
  await page.goto("/dev/mailbox")
  const link = page.getByTestId("message").filter({ hasText: address }).locator(`a[href*="${path}"]`).first()
  await expect.poll(() => link.count()).toBe(1)
  if (screenshot) await shot(page, screenshot)
  await link.click()
  await page.waitForURL((url) => url.pathname.startsWith(path))
}

/** A new browser signed in with the demo account's password, on the home page. */
export async function signedInDemoUser(browser: Browser, origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  await signInWithPassword(page)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Demo User")
  return { context, page }
}

export async function signOut(page: Page): Promise<void> {
  await page.goto("/")
  await page.getByRole("navigation").getByRole("button", { name: "Sign out" }).click()
  await expect.poll(() => status(page)).toContain("not signed in")
}

/** The demo account's password: a wrong one is refused with `CredentialsSignin`; the right one signs in. */
export async function demoAccountFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  await page.goto("/")
  expect(await status(page)).toContain("not signed in")
  await shot(page, "home-signed-out")

  await signInWithPassword(page, "not the password")
  await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
  await shot(page, "signin-wrong-password")

  await signInWithPassword(page)
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Demo User")
  await expect.poll(() => page.locator('[data-testid="sessions"] tr[data-current="true"]').count()).toBe(1)
  // The audit-trail plugin recorded the sign-in; the page lists it through the plugin's server function.
  await expect.poll(() => page.getByTestId("recent-sign-ins").locator("li").first().textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC: /)
  await shot(page, "home-signed-in")

  // The demo's user fields: the role the app gave every user, and the language the user picks
  // (`updateUserFields`), kept in the users table and read back through the session.
  expect(await page.getByTestId("role").textContent()).toBe("member")
  await page.getByTestId("language").selectOption("fr")
  await page.getByRole("button", { name: "Save language" }).click()
  await expect.poll(() => page.getByTestId("notice").textContent()).toContain("language was saved")
  await page.goto("/")
  expect(await page.getByTestId("language").inputValue()).toBe("fr")

  await page.getByRole("link", { name: "Go to the protected page" }).click()
  await expect.poll(() => page.getByTestId("protected-user").textContent()).toContain("Demo User")
  await signOut(page)
  // Signed out, the protected page sends the visitor to sign in, and back there afterwards.
  await page.goto("/protected")
  await page.waitForURL((url) => url.pathname === "/api/auth/signin" && url.searchParams.get("callbackUrl") === "/protected")
  await context.close()
}

/** OpenID Connect: the local IdP's login page, an account picked there, the account linked. */
export async function idpFlow(browser: Browser, origin: string, idpIssuer: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  await openSignIn(page)
  await page.locator('form[action$="/api/auth/signin/dev-idp"]').getByRole("button").click()
  await page.waitForURL((url) => url.origin === idpIssuer)
  await shot(page, "idp-login")
  await page.locator('button[name="account"][value="grace"]').click()
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/")
  await expect.poll(() => status(page)).toContain("Grace Hopper")
  await expect.poll(() => page.getByTestId("accounts").textContent()).toContain("dev-idp")
  await expect.poll(() => page.getByTestId("recent-sign-ins").locator("li").first().textContent()).toContain("dev-idp (oidc")
  await shot(page, "home-signed-in-idp")
  await signOut(page)
  await context.close()
}

/**
 * Email: a link requested on the sign-in page, read on /dev/mailbox, confirmed, signed in; then a
 * first password set on the home page (the sign-in is recent), and a sign-in with it.
 */
export async function emailFlow(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  const address = `linus-${Date.now()}@example.com`
  await openSignIn(page)
  const form = formWithButton(page, "Sign in with Email")
  await form.locator('input[name="email"]').fill(address)
  await form.getByRole("button", { name: "Sign in with Email", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/verify-request")

  await page.goto("/dev/mailbox")
  const message = page.getByTestId("message").filter({ hasText: address }).first()
  await expect.poll(() => message.count()).toBe(1)
  await shot(page, "mailbox")
  await message.locator('a[href*="/api/auth/callback/nodemailer"]').click()
  // The link opens a confirmation page; only its button uses the token (link scanners do not).
  await page.waitForURL((url) => url.pathname === "/api/auth/callback/nodemailer")
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(address)

  // The link is single-use: confirming it again ends on the error page.
  await page.goto("/dev/mailbox")
  const href = await page.getByTestId("message").filter({ hasText: address }).first().locator("a").first().getAttribute("href")
  const replay = await context.newPage()
  await replay.goto(href!)
  await replay.locator('form button[type="submit"]').click()
  await replay.waitForURL((url) => url.searchParams.get("error") === "Verification")
  await replay.close()

  // No password yet: the home page offers to set one, and then to change it.
  await page.goto("/")
  const passwordSection = page.getByRole("region", { name: "Password" })
  const setForm = passwordSection.getByTestId("set-password")
  await setForm.getByLabel("Password", { exact: true }).fill("linus first password")
  await shot(page, "home-password-set-form")
  await setForm.getByRole("button", { name: "Set password" }).click()
  await expect.poll(() => passwordSection.getByTestId("password-result").textContent()).toContain("Your password is set")
  expect(await passwordSection.getByTestId("change-password").count()).toBe(1)
  await shot(page, "home-password-set")
  await signOut(page)
  await signInWithPassword(page, "linus first password", address)
  await expect.poll(() => status(page)).toContain(address)
  await signOut(page)
  await context.close()
}

async function withAuthenticator(browser: Browser, origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return { context, page }
}

/** The address field a passkey form uses: its own, or the page's shared one that `data-email-field` names. */
async function passkeyEmailField(form: Locator): Promise<Locator> {
  const shared = await form.getAttribute("data-email-field")
  return shared ? form.page().locator(`input[id="${shared}"]`) : form.locator('input[name="email"]')
}

/** Passkeys: one created on the sign-in page for a new user, then a sign-in with it alone. */
export async function passkeyFlow(browser: Browser, origin: string): Promise<void> {
  const { context, page } = await withAuthenticator(browser, origin)
  const address = `pat-${Date.now()}@example.com`
  await openSignIn(page)
  const form = page.locator('form[action$="/api/auth/callback/passkey"]')
  await (await passkeyEmailField(form)).fill(address)
  await form.getByRole("button", { name: "Sign in with Passkey", exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(address)
  await expect.poll(() => page.getByTestId("passkeys").locator("li").count()).toBe(1)
  await shot(page, "home-signed-in-passkey")
  await signOut(page)

  // Signing in again: the sign-in page asks for a passkey in the email field's autofill
  // (conditional UI); the virtual authenticator answers as a user picking it there would.
  await page.goto("/api/auth/signin?callbackUrl=%2F")
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => status(page)).toContain(address)
  await signOut(page)
  await context.close()
}

/**
 * Sessions: two browsers signed in as the demo user; the first adds a passkey, revokes the
 * second's session (which is then signed out), and then its own.
 */
export async function revokeFlow(browser: Browser, origin: string): Promise<void> {
  const first = await withAuthenticator(browser, origin)
  const second = await browser.newContext({ baseURL: origin })
  const other = await second.newPage()
  await signInWithPassword(first.page)
  await expect.poll(() => status(first.page)).toContain("Demo User")
  await signInWithPassword(other)
  await expect.poll(() => status(other)).toContain("Demo User")

  const passkeys = first.page.getByTestId("passkeys").locator("li")
  const before = await passkeys.count()
  await first.page.getByRole("button", { name: "Add a passkey" }).click()
  await expect.poll(() => passkeys.count()).toBe(before + 1)

  await first.page.goto("/")
  const rows = first.page.getByTestId("sessions").locator("tbody tr")
  const others = first.page.locator('[data-testid="sessions"] tr[data-current="false"]')
  await expect.poll(() => others.count()).toBeGreaterThanOrEqual(1)
  await shot(first.page, "home-two-sessions")
  // Every other session of the user goes, the second browser's among them.
  for (let left = await others.count(); left > 0; left--) {
    await others.first().getByRole("button", { name: "Revoke session" }).click()
    await expect.poll(() => others.count()).toBe(left - 1)
  }
  expect(await rows.count()).toBe(1)

  await other.goto("/")
  expect(await status(other)).toContain("not signed in")

  await first.page.locator('tr[data-current="true"]').getByRole("button", { name: "Revoke this session" }).click()
  await expect.poll(() => status(first.page)).toContain("not signed in")
  await first.context.close()
  await second.close()
}

/**
 * The home page takes the database away for a few seconds: the protected page says "try again"
 * (never the sign-in page), the session endpoint answers 503 with Retry-After and keeps the
 * cookie; once the database is back, the same browser sees the page signed in.
 */
export async function outageFlow(browser: Browser, origin: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)
  await page.getByRole("button", { name: /Take the database away/ }).click()
  await page.waitForURL((url) => url.pathname === "/protected")
  await page.getByTestId("unavailable").waitFor()
  await shot(page, "outage-protected")
  const answer = await page.request.get("/api/auth/session")
  expect(answer.status()).toBe(503)
  expect(answer.headers()["retry-after"]).toMatch(/^\d+$/)
  expect(answer.headers()["set-cookie"]).toBeUndefined()
  // Tried again until the database is back: never sent to sign in meanwhile.
  await expect
    .poll(
      async () => {
        await page.getByRole("link", { name: "Try again" }).or(page.getByTestId("protected-user")).first().waitFor()
        if (await page.getByTestId("protected-user").count()) return "signed in"
        await page.getByRole("link", { name: "Try again" }).click()
        await page.waitForLoadState()
        expect(new URL(page.url()).pathname).toBe("/protected")
        return (await page.getByTestId("protected-user").count()) ? "signed in" : "waiting"
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBe("signed in")
  expect(await page.getByTestId("protected-user").textContent()).toContain("Demo User")
  await context.close()
}
