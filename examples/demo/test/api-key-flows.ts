/**
 * API keys in the demo (`@sesame/api-keys`). The demo account makes a key on the built-in account
 * page (shown once), and a script calls the demo's notes API with it (`/api/notes`): refused
 * without a key, answered with the key's user and scopes, a session for `GET /api/auth/session`
 * too (`sessions: true`), refused with `429` and `Retry-After` past its 5 uses a minute, and `401`
 * once revoked from the account page. Then the demo account creates an organization on the
 * organizations' built-in page, makes the organization's key on its page, and the API answers for
 * the organization.
 */
import { expect } from "vitest"
import type { Browser, Page } from "playwright-core"
import { demoAccount, shot, signedInDemoUser } from "./flows.js"

/** The key the page shows, once. */
async function shownKey(page: Page): Promise<string> {
  await page.waitForURL((url) => url.pathname === "/api/auth/api-keys/create")
  const key = (await page.locator("#api-key").textContent())!.trim()
  expect(key).toMatch(/^sesame_[0-9A-Za-z]{49}$/)
  return key
}

export async function apiKeyFlow(browser: Browser, origin: string): Promise<void> {
  const { context, page } = await signedInDemoUser(browser, origin)
  const notes = (key?: string) => fetch(`${origin}/api/notes`, { headers: key ? { authorization: `Bearer ${key}` } : {} })

  // The account page's section: make a key that may read notes.
  await page.goto("/api/auth/account")
  await page.locator("#api-key-name").fill("notes script")
  await page.getByRole("checkbox", { name: "notes:read" }).check()
  await page.getByRole("button", { name: "Create the key" }).click()
  const key = await shownKey(page)
  await shot(page, "api-key-created")

  expect((await notes()).status).toBe(401)
  const answered = await notes(key)
  expect(answered.status).toBe(200)
  const body = (await answered.json()) as { user: string; key: string; scopes: string[] }
  expect(body).toMatchObject({ key: "notes script", scopes: ["notes:read"] })
  // The key is a session where the app reads one, for its user.
  const session = (await (await fetch(`${origin}/api/auth/session`, { headers: { authorization: `Bearer ${key}` } })).json()) as { user: { id: string; email: string }; "api-keys": unknown }
  expect(session.user).toMatchObject({ id: body.user, email: demoAccount.email })
  expect(session["api-keys"]).toMatchObject({ name: "notes script", scopes: ["notes:read"] })
  // Five uses a minute: two made, three more pass, the sixth is refused until the minute ends.
  for (let use = 3; use <= 5; use++) expect((await notes(key)).status).toBe(200)
  const limited = await notes(key)
  expect(limited.status).toBe(429)
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)

  // Revoked on the account page: refused at once.
  await page.goto("/api/auth/account")
  const row = page.locator("li").filter({ hasText: "notes script" })
  await expect.poll(() => row.count()).toBe(1)
  await shot(page, "account-api-keys")
  await row.getByRole("button", { name: "Revoke" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/account")
  expect(await page.locator("li").filter({ hasText: "notes script" }).count()).toBe(0)
  expect((await notes(key)).status).toBe(401)

  // An organization's key, made on the organization's page by its owner.
  await page.goto("/api/auth/organization")
  await page.getByLabel("Name", { exact: true }).fill("Demo Labs")
  await page.getByRole("button", { name: "Create the organization" }).click()
  await page.getByRole("link", { name: "Members of Demo Labs" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/organization/manage")
  const organizationId = new URL(page.url()).searchParams.get("organizationId")!
  await expect.poll(() => page.getByRole("heading", { name: "The organization's API keys" }).count()).toBe(1)
  await page.locator("#organization-api-key-name").fill("labs exporter")
  await page.getByRole("checkbox", { name: "notes:read" }).check()
  await page.getByRole("button", { name: "Create the key" }).click()
  const labsKey = await shownKey(page)
  await page.getByRole("link", { name: "Back" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/organization/manage")
  await expect.poll(() => page.locator("li").filter({ hasText: "labs exporter" }).count()).toBe(1)
  await shot(page, "organization-api-keys")
  const labs = await notes(labsKey)
  expect(labs.status).toBe(200)
  expect(await labs.json()).toMatchObject({ organization: organizationId, key: "labs exporter" })
  // An organization's key is no one's session.
  expect(await (await fetch(`${origin}/api/auth/session`, { headers: { authorization: `Bearer ${labsKey}` } })).json()).toBeNull()
  await context.close()
}
