/**
 * The example as a new user runs it (`npm start`), driven in Debian's Chromium: the guarded page
 * sends a visitor to the app's sign-in page; a wrong password is refused on the page; the demo
 * account signs in, and the guarded page, the JSON route and the page's own script (the session on
 * the client) show the user; sign-out closes them again; a password account is made on Sesame's
 * sign-up page and signs in again through the app's own form; then the same through a real OpenID
 * provider (@sesame/dev-idp, started here and passed in through the environment). No page breaks
 * the Content-Security-Policy. Last, another site's posts to the sign-in and sign-out routes are
 * refused on the app's "Refused" page.
 *
 * The packages resolve to their sources through the workspace; the example is plain JavaScript.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { freePort, launchBrowser, saveScreenshot, watchCsp } from "@sesame/testing"

const exampleDir = join(import.meta.dirname, "..")
const demo = { email: "demo@example.com", password: "sesame-demo" }
const grace = { id: "grace", email: "grace@example.com", name: "Grace Hopper" }
const newcomer = { name: "Margaret Hamilton", email: "margaret@example.com", password: "apollo guidance 1969" }
const client = { id: "fastify-example-e2e", secret: "fastify-example-e2e-client-secret-0123456789" }

interface Started {
  readonly origin: string
  output(): string
  stop(): Promise<void>
}

/** The environment of a shell: this one's, without the `npm_*` variables of an enclosing npm run. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))), ...extra }
}

/** Runs `command` in the example's folder (its own process group) until it prints its address. */
async function start(command: string, args: string[], port: number, env: Record<string, string>): Promise<Started> {
  const child: ChildProcess = spawn(command, args, { cwd: exampleDir, env: shellEnv({ PORT: String(port), ...env }), stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM")
    await exited
  }
  const deadline = Date.now() + 30_000
  while (!output.includes(`Sesame Fastify example: http://localhost:${port}`)) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${command} ${args.join(" ")} printed no address within 30 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { origin: `http://127.0.0.1:${port}`, output: () => output, stop }
}

let idp: DevIdp | undefined
let app: Started | undefined
let browser: Browser | undefined

beforeAll(async () => {
  const port = await freePort()
  idp = await startDevIdp({
    clients: [{ client_id: client.id, client_secret: client.secret, redirect_uris: [`http://127.0.0.1:${port}/auth/callback/dev-idp`] }],
    accounts: [grace],
  })
  app = await start("npm", ["start"], port, {
    AUTH_SECRET: "fastify-example-e2e-secret-0123456789-abcdefghijklmnop",
    AUTH_DEV_IDP_ISSUER: idp.issuer,
    AUTH_DEV_IDP_ID: client.id,
    AUTH_DEV_IDP_SECRET: client.secret,
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await idp?.close()
})

const shot = (page: Page, name: string) => saveScreenshot(page, "fastify", name)

/** Requests `/api/me` as a script would (JSON, the context's cookies). */
async function apiMe(context: BrowserContext) {
  const response = await context.request.get("/api/me", { headers: { accept: "application/json" }, maxRedirects: 0 })
  return { status: response.status(), body: (await response.json()) as unknown }
}

/** Visits the guarded page signed out: it must end on the app's sign-in page, with the way back. */
async function expectTurnedAway(page: Page): Promise<void> {
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/login")
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toMatch(/\/account$/)
}

/** Signs out with the nav's button: back home, signed out on the server and on the client. */
async function signOutHere(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  expect(await page.getByTestId("session-status").textContent()).toBe("Not signed in")
  await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees no session")
}

describe("examples/fastify in Chromium", () => {
  it("guards the account page, refuses a wrong password, signs in with the demo account, shows the user on the server and the client, signs out", async () => {
    const context = await browser!.newContext({ baseURL: app!.origin })
    const page = await context.newPage()
    const csp = await watchCsp(page)

    await expectTurnedAway(page)
    await shot(page, "1-turned-away")
    expect(await apiMe(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })

    await page.getByLabel("Email", { exact: true }).fill(demo.email)
    await page.getByLabel("Password", { exact: true }).fill("not the password")
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await shot(page, "2-wrong-password")

    await page.getByLabel("Password", { exact: true }).fill(demo.password)
    await page.getByRole("button", { name: "Sign in with the demo account" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account").textContent()).toContain("Demo User (demo@example.com)")
    expect(await page.getByTestId("session-status").textContent()).toBe("Signed in as Demo User")
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe("The browser sees Demo User")
    await shot(page, "3-account")
    expect(await apiMe(context)).toMatchObject({ status: 200, body: { user: { email: demo.email, name: "Demo User" } } })

    await signOutHere(page)
    await expectTurnedAway(page)
    expect(await apiMe(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })
    expect(await csp.violations()).toEqual([])
    await context.close()
  })

  it("makes a password account on Sesame's sign-up page, signs out, and signs in with it through the app's own form", async () => {
    const context = await browser!.newContext({ baseURL: app!.origin })
    const page = await context.newPage()
    const csp = await watchCsp(page)

    await expectTurnedAway(page)
    await page.getByRole("link", { name: "Create a password account" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/signup")
    await page.getByLabel("Name (optional)").fill(newcomer.name)
    await page.getByLabel("Email address").fill(newcomer.email)
    await page.getByLabel("Password", { exact: true }).fill(newcomer.password)
    await page.getByRole("button", { name: "Create account" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account").textContent()).toContain(`${newcomer.name} (${newcomer.email})`)
    await shot(page, "4-account-new-password-account")
    await signOutHere(page)

    await expectTurnedAway(page)
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill("not the password")
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await page.getByLabel("Account email").fill(newcomer.email)
    await page.getByLabel("Account password").fill(newcomer.password)
    await page.getByRole("button", { name: "Sign in with a password account" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account").textContent()).toContain(`${newcomer.name} (${newcomer.email})`)
    expect(await apiMe(context)).toMatchObject({ status: 200, body: { user: { email: newcomer.email } } })
    await signOutHere(page)
    expect(await csp.violations()).toEqual([])
    await context.close()
  })

  it("signs in through the OpenID provider (a real round trip), shows the user, signs out, and is guarded again", async () => {
    const context = await browser!.newContext({ baseURL: app!.origin })
    const page = await context.newPage()
    const csp = await watchCsp(page)

    await expectTurnedAway(page)
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin === app!.origin && url.pathname === "/account")
    expect(await page.getByTestId("account").textContent()).toContain(`${grace.name} (${grace.email})`)
    await expect.poll(() => page.getByTestId("client-session").textContent()).toBe(`The browser sees ${grace.name}`)
    await shot(page, "5-account-after-oidc")

    await signOutHere(page)
    await expectTurnedAway(page)
    expect(await apiMe(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })
    expect(await csp.violations()).toEqual([])
    await context.close()
  })

  it("refuses another site's sign-in and sign-out posts (login CSRF) on the app's Refused page", async () => {
    const crossSite = await fetch(`${app!.origin}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ provider: "credentials", email: demo.email, password: demo.password }),
      redirect: "manual",
    })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers.getSetCookie()).toEqual([])
    expect(await crossSite.text()).toContain("This form must be sent from this site.")
    const crossSiteOut = await fetch(`${app!.origin}/logout`, { method: "POST", headers: { origin: "https://evil.example" }, redirect: "manual" })
    expect(crossSiteOut.status).toBe(403)
    expect(await crossSiteOut.text()).toContain("This form must be sent from this site.")
  })
})
