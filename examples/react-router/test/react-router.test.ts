/**
 * The example app as a newcomer runs it: `npm start` in its folder (a build when its inputs
 * changed, skipped otherwise; the local OpenID Provider beside it; `react-router-serve`), then
 * Chromium through every flow: the middleware's guard and the loader's guard send a signed-out
 * visitor to the app's sign-in page, for a document and for a client-side navigation (a `<Link>`,
 * whose `.data` request goes through the middleware); a wrong password is refused there (`401`);
 * the demo account signs in (`Credentials`), and the session shows on the server (the loaders) and
 * on the client (the layout's effect asks `/auth/session`); the JSON route answers the user;
 * sign-out ends it; a password account is made on Sesame's sign-up page and signs in again through
 * the app's form; the OpenID Connect sign-in makes a real round trip through the provider; and the
 * forms work without JavaScript. Then a few requests a browser would not make: another site's form
 * posts (refused by React Router's origin check and by Sesame's), a forged Host, the JSON 401.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { freePort, launchBrowser, saveScreenshot } from "@sesame/testing"

const exampleDir = join(import.meta.dirname, "..")
const demo = { email: "demo@example.com", password: "sesame-demo" }
const newcomer = { name: "Margaret Hamilton", email: "margaret@example.com", password: "apollo guidance 1969" }

let origin: string
let child: ChildProcess
let output = ""
let browser: Browser

/** A person's shell: no Vitest variables (NODE_ENV=test), no AUTH_*; the port to use. */
function shellEnv(port: number): NodeJS.ProcessEnv {
  const keep = ["PATH", "HOME", "TMPDIR", "LANG", "USER", "npm_config_cache"]
  const env: NodeJS.ProcessEnv = { PORT: String(port) }
  for (const name of keep) if (process.env[name]) env[name] = process.env[name]
  return env
}

beforeAll(async () => {
  const port = await freePort()
  const started = performance.now()
  // Its own process group, so that Ctrl-C (SIGINT to the group) reaches npm, start.mjs and the server alike.
  child = spawn("npm", ["start"], { cwd: exampleDir, env: shellEnv(port), stdio: ["ignore", "pipe", "pipe"], detached: true })
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 150_000
  while (!/\[react-router-serve\]/.test(output) || !/Sesame on React Router: (\S+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm start was not ready in time:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  origin = /Sesame on React Router: (\S+)/.exec(output)![1]!
  const build = output.split("\n").find((line) => /react-router build|up to date/.test(line))
  console.log(`[react-router example] ${build}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s at ${origin}`)
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid!, "SIGINT")
    await exited
  }
})

const shot = (page: Page, name: string) => saveScreenshot(page, "react-router", name)

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

/** The requests `page` makes from now on: the documents it loads, and React Router's `.data` fetches. */
function watchRequests(page: Page): { documents: string[]; data: string[] } {
  const seen = { documents: [] as string[], data: [] as string[] }
  page.on("request", (request) => {
    const url = new URL(request.url())
    if (url.origin !== origin) return
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) seen.documents.push(`${request.method()} ${url.pathname}`)
    else if (url.pathname.endsWith(".data")) seen.data.push(`${request.method()} ${url.pathname}`)
  })
  return seen
}

/** The status of the answer to the next post of a sign-in form (a `.data` fetch with JavaScript, the document without). */
function signInAnswer(page: Page): Promise<number> {
  return page
    .waitForResponse((response) => response.request().method() === "POST" && /^\/signin(\.data)?$/.test(new URL(response.url()).pathname))
    .then((response) => response.status())
}

/** Signs out with the header's button: back home, signed out on the server (and on the client, with JavaScript). */
async function signOutHere(page: Page, javaScript = true): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await expect.poll(() => page.getByTestId("home-user").textContent()).toBe("Not signed in.")
  expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1)
  if (javaScript) await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees no session")
}

/** The header's link to `name`: a `<Link>`, a client-side navigation once React has hydrated the page. */
const navLink = (page: Page, name: string) => page.getByRole("navigation").getByRole("link", { name, exact: true })

const unauthorized = { status: 401, body: { error: "Unauthorized", message: "Sign in first." } }

describe("the React Router example in Chromium", () => {
  it("guards (documents and client-side navigations), refuses a wrong password, signs in with the demo account, shows the session on the server and the client, signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()
    const errors: string[] = []
    page.on("pageerror", (error) => errors.push(error.message))

    // Signed out: the middleware's guard (/dashboard) and the loader's (/account) send the visitor to sign in.
    await page.goto("/account")
    await expectSignInPage(page, "/account")
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await shot(page, "1-dashboard-guarded")
    expect(await apiMe(context)).toEqual(unauthorized)

    // The same through <Link>s: React Router fetches /dashboard.data and /account.data, which the
    // middleware and the loader answer with the redirect to Sesame's sign-in endpoint, a resource
    // route: the browser loads it as a document (X-Remix-Reload-Document), and it forwards to /signin.
    await page.goto("/")
    await hydrated(page)
    const requests = watchRequests(page)
    await navLink(page, "Dashboard").click()
    await expectSignInPage(page, "/dashboard")
    await navLink(page, "Home").click()
    await page.waitForURL((url) => url.pathname === "/")
    await navLink(page, "Account").click()
    await expectSignInPage(page, "/account")
    expect(requests.data).toEqual(expect.arrayContaining(["GET /dashboard.data", "GET /account.data"]))
    expect(requests.data.filter((request) => request.startsWith("GET /auth/"))).toEqual([])
    expect(requests.documents).toContain("GET /auth/signin")
    expect(requests.documents.filter((request) => request !== "GET /auth/signin" && request !== "GET /signin")).toEqual([])
    const afterGuard = watchRequests(page)

    // A wrong password: the action catches CredentialsSignin and answers 401 with the page's message.
    await hydrated(page)
    await page.getByLabel("Email", { exact: true }).fill(demo.email)
    await page.getByLabel("Password", { exact: true }).fill("not the password")
    const refused = signInAnswer(page)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    expect(await refused).toBe(401)
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await shot(page, "2-wrong-password")
    await page.getByLabel("Password", { exact: true }).fill(demo.password)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User (demo@example.com)")
    await expect.poll(() => page.getByTestId("header-user").textContent()).toBe("Demo User")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Demo User")
    // Signing in through the app's own form and action: no document is loaded.
    expect(afterGuard.documents).toEqual([])

    // Signed in, the guarded pages through a <Link> and as documents; the JSON route answers the user.
    await navLink(page, "Dashboard").click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    await shot(page, "3-dashboard-after-credentials")
    await page.goto("/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    expect(await page.getByTestId("header-user").textContent()).toBe("Demo User")
    await page.goto("/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User (demo@example.com)")
    expect(await apiMe(context)).toEqual({ status: 200, body: { email: demo.email } })
    await page.goto("/")
    expect(await page.getByTestId("home-user").textContent()).toBe("Signed in as Demo User (demo@example.com)")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Demo User")

    // Sign-out (the header's <Form>), then both guards and the JSON route apply again.
    await signOutHere(page)
    await navLink(page, "Dashboard").click()
    await expectSignInPage(page, "/dashboard")
    await page.goto("/account")
    await expectSignInPage(page, "/account")
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
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill("not the password")
    const refused = signInAnswer(page)
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    expect(await refused).toBe(401)
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill(newcomer.password)
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe(`Hello, ${newcomer.name}.`)
    expect(await apiMe(context)).toEqual({ status: 200, body: { email: newcomer.email } })
    await signOutHere(page)
    await context.close()
  }, 120_000)

  it("signs in through the OpenID Provider (a real round trip), and signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    await hydrated(page)
    // The action's redirect leaves the app: React Router loads the provider's page as a document.
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin !== origin)
    await shot(page, "5-idp-login")
    await page.getByRole("button", { name: /Ada Lovelace/ }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Ada Lovelace.")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Ada Lovelace")
    await navLink(page, "Account").click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Ada Lovelace (ada@example.com)")
    await shot(page, "6-account-after-oidc")

    await signOutHere(page)
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    expect(await apiMe(context)).toEqual(unauthorized)
    await context.close()
  }, 120_000)

  it("works without JavaScript: the guard, a wrong password, the sign-in form, sign-out", async () => {
    const context = await browser.newContext({ baseURL: origin, javaScriptEnabled: false })
    const page = await context.newPage()

    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    // The browser posts the form itself: the page comes back with 401 and the message.
    await page.getByLabel("Email", { exact: true }).fill(demo.email)
    await page.getByLabel("Password", { exact: true }).fill("not the password")
    const refused = signInAnswer(page)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    expect(await refused).toBe(401)
    expect(await page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    expect(await page.getByLabel("Email", { exact: true }).inputValue()).toBe(demo.email)
    await page.getByLabel("Password", { exact: true }).fill(demo.password)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.getByTestId("dashboard-user").textContent()).toBe("Hello, Demo User.")
    expect(await page.getByTestId("header-user").textContent()).toBe("Demo User")
    // The session on the client needs the script: without it, the element stays empty.
    expect(await page.getByTestId("client-session").textContent()).toBe("")
    await shot(page, "7-dashboard-without-javascript")
    expect(await apiMe(context)).toEqual({ status: 200, body: { email: demo.email } })

    await signOutHere(page, false)
    await page.goto("/dashboard")
    await expectSignInPage(page, "/dashboard")
    expect(await apiMe(context)).toEqual(unauthorized)
    await context.close()
  }, 120_000)
})

describe("requests a browser would not make", () => {
  /** The cookies of `response` as a `Cookie` header. */
  const cookieHeader = (response: Response) => response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf(";"))).join("; ")

  it("the built-in sign-in page's post passes Sesame's checks and signs in", async () => {
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
    expect(await session.json()).toEqual({ email: demo.email })
  })

  it("another site's form posts are refused before any sign-in or sign-out: by React Router's origin check, else by Sesame's", async () => {
    // React Router checks the Origin of a post to a page's action (the document and its `.data`
    // fetch): 400. Not a resource route's (/auth/*, /signout as a document): Sesame refuses those, 403.
    const targets = { "/auth/callback/credentials": 403, "/signin": 400, "/signin.data": 400, "/signout": 403, "/signout.data": 400 }
    for (const [target, status] of Object.entries(targets)) {
      const response = await fetch(`${origin}${target}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ provider: "credentials", redirectTo: "/", ...demo }),
      })
      expect(response.status, target).toBe(status)
      expect(response.headers.getSetCookie(), target).toEqual([])
    }
  })

  it("a forged Host is never written into a guard's redirect; a JSON client gets 401", async () => {
    for (const target of ["/account", "/dashboard", "/dashboard.data"]) {
      const response = await fetch(`${origin}${target}`, { redirect: "manual", headers: { host: "evil.example", "x-forwarded-host": "evil.example" } })
      expect([202, 303], target).toContain(response.status)
      expect(response.headers.get("location") ?? "", target).not.toContain("evil.example")
      expect(await response.text(), target).not.toContain("evil.example")
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
