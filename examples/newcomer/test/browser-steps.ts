/**
 * What the newcomer tests of the frameworks whose guides share the same pages (SvelteKit, Astro,
 * React Router, Nuxt, TanStack Start) do in the browser, in one place: a fresh page, where the
 * browser landed, axe, the JSON route as a script sees it, the built-in sign-in page's forms, a
 * `Password()` account from sign-up to sign-in again, and the whole flow of the guides whose header
 * link to the dashboard is guarded in the browser too.
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

/** What {@link linkGuardedFlow} is given. */
export interface LinkGuardedFlow {
  readonly browser: Browser
  /** The app's origin, `http://localhost:<port>`. */
  readonly origin: string
  /** The screenshots' folder, and `dev` or `start`. */
  readonly suite: string
  readonly label: string
  /** The guide's demo account (`Credentials`). */
  readonly account: { readonly email: string; readonly password: string; readonly name: string; readonly id: string }
  /** A framework's development tool on the page, left out of axe (see {@link accessible}). */
  readonly devTool?: string
  /** The framework's own checks, signed in on the dashboard, before the header's sign-out. */
  readonly signedIn?: (app: { page: Page; server: Locator; header: Locator; documents: string[] }) => Promise<void>
}

/**
 * The flow of the guides whose header link to the dashboard is guarded in the browser too (Nuxt's
 * route middleware, TanStack Start's `beforeLoad`), with the pages the guides share: `#server-session`
 * and `#browser-session` lines, a header with links, "Sign out" and "Sign in". Signed out, the JSON
 * route's `401`; the header's link to the dashboard, with no document for it, ends on the built-in
 * sign-in page with the way back; a wrong password refused; the demo account signed in, in the
 * server's HTML and in the browser; the JSON route's user; `signedIn`; the header's sign-out, and
 * the guard's `303` for the dashboard's document; a `Password()` account ({@link passwordAccount}).
 * Returns the page errors the browser reported.
 */
export async function linkGuardedFlow({ browser, origin, suite, label, account, devTool, signedIn }: LinkGuardedFlow): Promise<string[]> {
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 })
  const { context, page, errors, shot } = await openPage(browser, origin, suite, label)
  const server = page.locator("#server-session")
  const browserSession = page.locator("#browser-session")
  const header = page.locator("header")
  const documents: string[] = []
  page.on("request", (request) => {
    if (request.isNavigationRequest()) documents.push(new URL(request.url()).pathname)
  })

  // Signed out, the JSON route answers a JSON client 401 (not the guard's redirect, not a 500).
  expect(await me(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })

  // The home page is public; the line only the browser renders says the app is hydrated.
  await page.goto("/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  await accessible(page, devTool)
  await shot("1-home-signed-out")

  // The header's link to the dashboard: no document request for it, the guard in the browser sends
  // the visitor to the built-in sign-in page, with the way back.
  documents.length = 0
  await header.getByRole("link", { name: "Dashboard" }).click()
  await landOn(page, "/auth/signin")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")
  expect(documents).toEqual(["/auth/signin"])
  await accessible(page)
  await shot("2-sign-in-page")

  await wrongPasswordRefused(page, account.email, "/dashboard")

  // The credentials provider: back on the dashboard, signed in, with the id from the session
  // callback, in the server's HTML and in the browser.
  const dashboard = `Signed in as ${account.name} (${account.email}), user id ${account.id}.`
  await signInWith(page, "credentials", account.email, account.password)
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toBe(dashboard)
  await eventually(() => browserSession.textContent()).toBe(`The browser sees ${account.email}.`)
  expect(await (await context.request.get("/dashboard")).text()).toContain(dashboard)
  await page.reload()
  expect(pathOf(page)).toBe("/dashboard")
  await eventually(() => header.textContent()).toContain(account.name)
  await accessible(page, devTool)
  await shot("3-dashboard-signed-in")

  // The JSON route, signed in.
  expect(await me(context)).toEqual({ status: 200, body: { id: account.id, name: account.name, email: account.email } })
  await signedIn?.({ page, server, header, documents })

  // Sign-out from the header: home, signed out, and the dashboard's document meets the guard.
  await header.getByRole("button", { name: "Sign out" }).click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  await shot("4-signed-out")
  expect((await me(context)).status).toBe(401)
  const guarded = await context.request.get("/dashboard", { maxRedirects: 0 })
  expect(guarded.status()).toBe(303)
  expect(new URL(guarded.headers().location!, origin).href).toBe(new URL("/auth/signin?callbackUrl=%2Fdashboard", origin).href)

  // Password(): a new account, out, and in again from the header's link.
  await page.goto("/dashboard")
  await landOn(page, "/auth/signin")
  await passwordAccount({ page, server, signOut: header.getByRole("button", { name: "Sign out" }), signIn: header.getByRole("link", { name: "Sign in" }), label, shot })
  await context.close()
  return errors
}
