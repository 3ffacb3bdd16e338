/**
 * What the newcomer tests of the frameworks whose guides share the same pages (SvelteKit, Astro,
 * React Router, Nuxt) do in the browser, in one place: a fresh page, where the browser landed, axe,
 * the JSON route as a script sees it, the built-in sign-in page's forms, and a `Password()` account
 * from sign-up to sign-in again.
 *
 * @module
 */
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { describeViolations, runAxe, saveScreenshot } from "@sesame/testing"
import { expect } from "vitest"

export const pathOf = (page: Page) => {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/**
 * Waits until the browser is on `path`. When it is not there in time, the failure says where it is
 * and what that page says (SvelteKit's and Astro's refusal of a form post is a page of plain text,
 * a guard's 500 its error page), instead of only that the wait timed out.
 */
export async function landOn(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 })
  } catch {
    const text = await page
      .locator("body")
      .innerText({ timeout: 5_000 })
      .catch(() => "(no page)")
    throw new Error(`Expected to land on ${path}, but the browser is on ${pathOf(page)}, which says:\n${text.slice(0, 600)}`)
  }
}

/**
 * No critical or serious accessibility violation on the page as it is. A violation only inside
 * `devTool` (the element of a framework's development tool on the page, `nuxt-devtools-frame`,
 * whose nodes axe names inside it: not the app's, and absent from a build) is left out.
 */
export async function accessible(page: Page, devTool?: string): Promise<void> {
  const { byImpact } = await runAxe(page)
  const blocking = [...byImpact.critical, ...byImpact.serious].filter((violation) => violation.nodes.some((node) => node.target.flat()[0] !== devTool))
  expect(blocking, describeViolations(blocking)).toEqual([])
}

/** What the JSON route answers a JSON client with the context's cookies: its status and body. */
export async function me(context: BrowserContext): Promise<{ status: number; body: unknown }> {
  const response = await context.request.get("/api/me", { headers: { accept: "application/json" }, maxRedirects: 0 })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: kept as text, which the failing assertion shows.
  }
  return { status: response.status(), body }
}

/** Fills and posts the built-in sign-in page's form of `provider` (located by where it posts). */
export async function signInWith(page: Page, provider: "credentials" | "password", email: string, password: string): Promise<void> {
  const form = page.locator(`form[action$="/auth/callback/${provider}"]`)
  await form.locator('input[name="email"]').fill(email)
  await form.locator('input[name="password"]').fill(password)
  await form.locator('button[type="submit"]').click()
}

/**
 * A wrong password in the built-in sign-in page's credentials form: the page again, saying so,
 * with the way back to `back` kept (which the page writes as an absolute URL on the app's origin).
 */
export async function wrongPasswordRefused(page: Page, email: string, back: string): Promise<void> {
  await signInWith(page, "credentials", email, "not the password")
  await expect.poll(() => new URL(page.url()).searchParams.get("error"), { timeout: 30_000 }).toBe("CredentialsSignin")
  await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 30_000 }).toContain("sign you in")
  const origin = new URL(page.url()).origin
  expect(new URL(new URL(page.url()).searchParams.get("callbackUrl")!, origin).href).toBe(new URL(back, origin).href)
}

/** A page of a fresh browser context on `origin`, the errors it reports, and its screenshots (`<label>-<name>` in `suite`'s folder). */
export async function openPage(browser: Browser, origin: string, suite: string, label: string) {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  context.setDefaultTimeout(60_000)
  const page = await context.newPage()
  const errors: string[] = []
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`))
  const shot = (name: string) => saveScreenshot(page, suite, `${label}-${name}`)
  return { context, page, errors, shot }
}

/** What {@link passwordAccount} is given of the guide's app in the browser. */
export interface GuideApp {
  readonly page: Page
  /** The page's line that says whom the server sees: `Signed in as … (…), user id ….` on the dashboard. */
  readonly server: Locator
  /** The header's "Sign out" button and "Sign in" link. */
  readonly signOut: Locator
  readonly signIn: Locator
  /** `dev` or `start`: part of the new account's address. */
  readonly label: string
  readonly shot: (name: string) => Promise<unknown>
}

/**
 * `Password()` as the guides have it, from the built-in sign-in page the browser is on: an account
 * made on the sign-up page (linked from the sign-in page, with the way back), signed in at once since
 * the guides turn address confirmation off; out with the header's button, and in again with its
 * password from the header's link.
 */
export async function passwordAccount({ page, server, signOut, signIn, label, shot }: GuideApp): Promise<void> {
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 })
  const account = { email: `newcomer-${label}@example.com`, password: "correct horse battery staple" }
  await page.locator('a[href*="/auth/signup"]').click()
  await landOn(page, "/auth/signup")
  await accessible(page)
  const form = page.locator('form[action*="/auth/signup"]')
  await form.locator('input[name="email"]').fill(account.email)
  await form.locator('input[name="password"]').fill(account.password)
  await shot("password-1-sign-up")
  await form.locator('button[type="submit"]').click()
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toMatch(new RegExp(`^Signed in as ${account.email} \\(${account.email}\\), user id [\\w-]+\\.$`))
  const id = /user id ([\w-]+)\.$/.exec((await server.textContent())!)![1]!
  // No name was given on the sign-up page.
  expect(await me(page.context())).toEqual({ status: 200, body: { id, name: null, email: account.email } })
  await shot("password-2-dashboard")

  await signOut.click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await signIn.click()
  await landOn(page, "/auth/signin")
  await signInWith(page, "password", account.email, account.password)
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe(`Signed in as ${account.email}.`)
  await page.goto("/dashboard")
  await eventually(() => server.textContent()).toContain(`user id ${id}.`)
  await shot("password-3-signed-in-again")
}
