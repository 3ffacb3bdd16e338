/**
 * The demo as an OAuth 2.1 / OpenID Connect provider (`@sesame/oauth-provider`), from the page
 * /dev/partner, whose two apps are clients of the demo's own authorization server. The demo user
 * signs in to Partner notes (the authorization code with PKCE, the module's consent page, the code
 * exchanged with the client's secret on the server); removes Partner notes from the apps they
 * allowed; then connects Living-room TV with the device flow: the TV's code typed on the module's
 * code page, confirmed and allowed, and the TV's next token request answered with the user's tokens;
 * and opens the module's page of the apps the user registered.
 */
import { expect } from "vitest"
import type { Browser, Page } from "playwright-core"
import { demoAccount, shot, signedInDemoUser, signOut } from "./flows.js"

const title = (page: Page) => page.locator("h1").textContent()

export async function oauthProviderFlow(browser: Browser, origin: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)
  const issuer = `${origin}/api/auth/oauth`

  // The page, from the header; the partner app knows nobody yet.
  await page.getByRole("navigation").getByRole("link", { name: "Partner notes" }).click()
  await page.waitForURL((url) => url.pathname === "/dev/partner")
  expect(await page.getByTestId("issuer").textContent()).toBe(issuer)
  expect(await page.getByTestId("partner-user").count()).toBe(0)

  // Partner notes: the authorization request, the consent page, Allow, back signed in.
  await page.getByRole("button", { name: "Sign in to Partner notes" }).click()
  await page.waitForURL((url) => url.href.startsWith(`${issuer}/`))
  await expect.poll(() => title(page)).toBe("Allow Partner notes?")
  expect(await page.title()).toBe("Allow Partner notes?")
  expect(await page.locator("p.lead").textContent()).toContain(`your account ${demoAccount.email}`)
  expect(await page.locator("ul li").allInnerTexts()).toEqual(["Know who you are on this site", "See your email address", "See your name and picture"])
  await shot(page, "oauth-consent-demo")
  await page.getByRole("button", { name: "Allow" }).click()
  await page.waitForURL((url) => url.pathname === "/dev/partner")
  await expect.poll(() => page.getByTestId("partner-user").textContent()).toBe(`Partner notes sees you as ${demoAccount.email}.`)
  expect(await page.getByTestId("partner-scopes").locator("code").allInnerTexts()).toEqual(["openid", "email", "profile"])
  expect(await page.getByTestId("partner-status").textContent()).toBe("Partner notes signed you in.")
  await shot(page, "partner-app")

  // The apps the user allowed: Partner notes, removed.
  await page.getByRole("link", { name: "Apps you allowed" }).click()
  await page.waitForURL((url) => url.href === `${issuer}/consents`)
  expect(await page.locator("ul.titled li strong").allInnerTexts()).toEqual(["Partner notes"])
  await page.getByRole("button", { name: "Remove Partner notes" }).click()
  await page.waitForURL((url) => url.searchParams.get("done") === "revoke")
  expect(await page.locator(".notice[role=status]").textContent()).toBe("The app was removed.")
  expect(await page.getByRole("button", { name: "Remove Partner notes" }).count()).toBe(0)
  expect(await page.getByText("You have not allowed any app.").count()).toBe(1)

  // Living-room TV: a code, nobody has entered it yet.
  await page.goto("/dev/partner")
  await page.getByRole("button", { name: "Start as a TV" }).click()
  await expect.poll(() => page.getByTestId("tv-code").count()).toBe(1)
  const userCode = (await page.getByTestId("tv-code").textContent())!
  expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/)
  expect(await page.getByTestId("tv-link").getAttribute("href")).toBe(`${issuer}/device`)
  await page.getByRole("button", { name: "Check the TV" }).click()
  await expect.poll(() => page.getByTestId("tv-status").textContent()).toContain("Waiting")
  expect(await page.getByTestId("tv-code").textContent()).toBe(userCode)

  // The verification link: the module's code page, the code typed, checked, allowed.
  await page.getByTestId("tv-link").click()
  await page.waitForURL((url) => url.pathname === "/api/auth/oauth/user-code")
  expect(await title(page)).toBe("Connect a device")
  await page.locator('input[name="user_code"]').fill(userCode)
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.searchParams.has("user_code"))
  expect(await page.locator("p.lead").textContent()).toBe("Living-room TV asks to connect to your account. Check that your device shows this code:")
  expect(await page.locator("p.code").textContent()).toBe(userCode)
  await shot(page, "oauth-device-demo")
  await page.getByRole("button", { name: "Yes, connect it" }).click()
  await expect.poll(() => title(page)).toBe("Allow Living-room TV?")
  await page.getByRole("button", { name: "Allow" }).click()
  await page.waitForURL((url) => url.searchParams.has("done"))
  expect(await page.locator(".notice[role=status]").textContent()).toBe("Your device is connected. You can close this window and go back to it.")

  // Back to the TV: its next token request gets the user's tokens.
  await page.goto("/dev/partner")
  await page.getByRole("button", { name: "Check the TV" }).click()
  await expect.poll(() => page.getByTestId("tv-user").textContent()).toBe(`The TV is signed in as ${demoAccount.email}.`)
  expect(await page.getByTestId("tv-status").textContent()).toBe("The TV got its tokens.")

  // The TV is now among the apps the user allowed; the apps the user registered are a link away.
  await page.getByRole("link", { name: "Apps you allowed" }).click()
  await page.waitForURL((url) => url.href === `${issuer}/consents`)
  expect(await page.locator("ul.titled li strong").allInnerTexts()).toEqual(["Living-room TV"])
  await page.goto("/dev/partner")
  await page.getByRole("link", { name: "Apps you registered" }).click()
  await page.waitForURL((url) => url.href === `${issuer}/clients`)
  expect(await title(page)).toBe("Apps you registered")

  await signOut(page)
  await context.close()
}
