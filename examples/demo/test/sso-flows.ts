/**
 * Enterprise SSO in the demo (`@sesame/sso`): the demo user creates Acme Corp, adds acme.example,
 * publishes its TXT record on the DNS page (the demo's stand-in for a DNS provider) and verifies
 * it; connects Acme Corp's identity provider, which `npm start` runs, on the SSO plugin's built-in
 * page. Lin, in another browser, types her work address on the sign-in page, is sent to Acme's
 * identity provider (home-realm discovery), picks her account there, and arrives signed in and a
 * member of Acme Corp (just-in-time provisioning), which the owner sees.
 */
import { expect } from "vitest"
import type { Browser } from "playwright-core"
import { formWithButton, openSignIn, shot, signedInDemoUser, signOut, status } from "./flows.js"

const notice = (page: import("playwright-core").Page) => page.getByTestId("notice").textContent()

export async function ssoFlow(browser: Browser, origin: string): Promise<void> {
  const owner = await signedInDemoUser(browser, origin)
  const page = owner.page
  await page.goto("/organizations")
  await page.getByLabel("New organization’s name").fill("Acme Corp")
  await page.getByRole("button", { name: "Create organization" }).click()
  await expect.poll(() => notice(page)).toContain("organization was created")
  await page.getByRole("button", { name: "Make active: Acme Corp" }).click()
  await expect.poll(() => page.getByTestId("active-organization").textContent()).toBe("Acme Corp")
  await page.getByRole("link", { name: "Domains and single sign-on" }).click()
  await page.waitForURL((url) => url.pathname === "/organizations/sso")

  // The domain: added, its record published on the DNS page (the link fills the form in), verified.
  await page.getByLabel("Domain", { exact: true }).fill("acme.example")
  await page.getByRole("button", { name: "Add domain" }).click()
  await expect.poll(() => notice(page)).toContain("domain was added")
  const recordValue = await page.getByTestId("record-value").textContent()
  expect(recordValue).toMatch(/^sesame-verification=/)
  // Before the record exists, verifying is refused.
  await page.getByRole("button", { name: "Verify acme.example" }).click()
  await expect.poll(() => notice(page)).toContain("TXT record was not found")
  await shot(page, "sso-domains")
  await page.getByRole("link", { name: "on the demo's DNS page" }).click()
  await page.waitForURL((url) => url.pathname === "/dev/dns")
  await expect(page.getByLabel("TXT value").inputValue()).resolves.toBe(recordValue)
  await page.getByRole("button", { name: "Publish TXT record" }).click()
  await expect.poll(() => notice(page)).toContain("Published a TXT record for _sesame-verification.acme.example")
  await expect.poll(() => page.getByTestId("records").textContent()).toContain(recordValue!)
  await shot(page, "dev-dns")
  await page.goto("/organizations/sso")
  await page.getByRole("button", { name: "Verify acme.example" }).click()
  await expect.poll(() => notice(page)).toContain("domain is verified")
  await expect.poll(() => page.getByTestId("domains").textContent()).toContain("verified")

  // The connection, on the plugin's built-in page, with what the demo's hint gives.
  const hint = page.getByTestId("demo-idp")
  const issuer = (await hint.getByTestId("demo-idp-issuer").textContent())!
  const clientId = (await hint.getByTestId("demo-idp-client-id").textContent())!
  const clientSecret = (await hint.getByTestId("demo-idp-client-secret").textContent())!
  await page.getByRole("link", { name: "Manage connections" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/sso/manage")
  await page.getByLabel("Name").first().fill("Acme Corp IdP")
  await page.getByLabel("Issuer URL").fill(issuer)
  await page.getByLabel("Client ID").fill(clientId)
  await page.getByLabel("Client secret").fill(clientSecret)
  await page.getByRole("button", { name: "Add an OpenID Connect provider" }).click()
  await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The OpenID Connect provider was added.")
  await expect.poll(() => page.locator("body").textContent()).toContain(`${origin}/api/auth/callback/sso-`)
  await shot(page, "sso-manage")

  // Lin, in another browser: her address on the sign-in page, Acme's identity provider, and back a member.
  const context = await browser.newContext({ baseURL: origin })
  const lin = await context.newPage()
  // An address at a domain no organization proved goes nowhere.
  await openSignIn(lin)
  await formWithButton(lin, "Continue with single sign-on").getByLabel("Work email address").fill("kim@nowhere.example")
  await formWithButton(lin, "Continue with single sign-on").getByRole("button").click()
  await expect.poll(() => lin.locator("body").textContent()).toContain("No organization signs in this address with single sign-on")
  await openSignIn(lin)
  const sso = formWithButton(lin, "Continue with single sign-on")
  await sso.getByLabel("Work email address").fill("lin@acme.example")
  await shot(lin, "signin-sso")
  await sso.getByRole("button", { name: "Continue with single sign-on" }).click()
  await lin.waitForURL((url) => url.origin === issuer)
  await expect.poll(() => lin.locator("body").textContent()).toContain("Acme Corp sign-in")
  await lin.locator('button[name="account"][value="lin"]').click()
  await lin.waitForURL((url) => url.origin === origin && url.pathname === "/")
  await expect.poll(() => status(lin)).toContain("Lin Okafor")
  await expect.poll(() => lin.getByTestId("accounts").textContent()).toContain("sso-")
  await lin.goto("/organizations")
  await expect.poll(() => lin.getByTestId("organizations").textContent()).toContain("Acme Corp (member)")
  await shot(lin, "sso-member")
  await signOut(lin)
  await context.close()

  // The owner sees Lin among Acme's members.
  await page.goto("/organizations")
  await expect.poll(() => page.getByTestId("members").textContent()).toContain("lin@acme.example")
  await signOut(page)
  await owner.context.close()
}
