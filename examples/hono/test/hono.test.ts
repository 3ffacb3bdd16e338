/**
 * The Hono example as its README runs it (`npm start`: the app on @hono/node-server and the Sesame
 * Dev IdP beside it), driven in Chromium: the guard before sign-in, a wrong and a right password on
 * the app's own sign-in page (server-side `signIn`), the guarded page and JSON route, sign-out
 * (server-side `signOut`), the guard again, then a real OpenID Connect round trip through the dev
 * IdP and sign-out; and the sign-in routes' answers to a body that is not a form and to another
 * site's post. Needs the packages built (`npm test` builds first).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { freePort, launchBrowser, saveScreenshot } from "@sesame/testing"

const exampleDir = join(import.meta.dirname, "..")
let app: ChildProcess
let output = ""
let origin: string
let browser: Browser

/** `npm start` in its own process group (a terminal's foreground job), so that it stops whole. */
async function npmStart(port: number): Promise<void> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), AUTH_SECRET: "hono-e2e-secret-0123456789-abcdefghijklmnop" }
  app = spawn("npm", ["start"], { cwd: exampleDir, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  app.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  app.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 30_000
  while (!/Sesame Dev IdP at http:\/\/127\.0\.0\.1:\d+/.test(output)) {
    if (app.exitCode !== null) throw new Error(`npm start exited (${app.exitCode}):\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 30 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  const port = await freePort()
  origin = `http://localhost:${port}`
  ;[browser] = await Promise.all([launchBrowser(), npmStart(port)])
}, 60_000)

afterAll(async () => {
  await browser?.close()
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve))
    process.kill(-app.pid!, "SIGTERM")
    await exited
  }
})

const path = (page: Page) => new URL(page.url()).pathname
const shot = (page: Page, name: string) => saveScreenshot(page, "hono", name)

describe("examples/hono in Chromium", () => {
  it("prints where it runs and how to sign in", () => {
    expect(output).toContain(`Sesame on Hono: ${origin}`)
    expect(output).toContain("Demo account: demo@example.com / sesame-demo")
  })

  it("guards /account, signs in with credentials and with the dev IdP, shows the user, signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    // Signed out: the guard sends the visitor to the app's sign-in page, with the way back.
    await page.goto("/account")
    await page.waitForURL((url) => url.pathname === "/login")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/account`)
    const refused = await page.request.get("/api/me", { headers: { accept: "application/json" } })
    expect(refused.status()).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    await shot(page, "1-guard-redirect")

    // A wrong password: the route catches CredentialsSignin and says so; then the right one.
    await page.getByLabel("Email").fill("demo@example.com")
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await page.getByLabel("Email").fill("demo@example.com")
    await page.getByLabel("Password").fill("sesame-demo")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User <demo@example.com>")
    const me = await page.request.get("/api/me", { headers: { accept: "application/json" } })
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe("demo@example.com")
    await shot(page, "2-account-after-credentials")

    // Sign-out, on the server: home says so, and the guard is back.
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname === "/")
    expect(await page.getByTestId("home-status").textContent()).toBe("Not signed in.")
    await page.goto("/account")
    await page.waitForURL((url) => url.pathname === "/login")

    // Through the dev IdP: a real OpenID Connect round trip, picking an account on its page.
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin !== origin)
    await shot(page, "3-dev-idp")
    await page.getByRole("button", { name: /Grace Hopper/ }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Grace Hopper <grace@example.com>")
    expect(await page.getByTestId("nav-user").textContent()).toBe("Grace Hopper")
    await shot(page, "4-account-after-oidc")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname === "/")
    expect(await page.getByTestId("home-status").textContent()).toBe("Not signed in.")
    await page.goto("/account")
    expect(path(page)).toBe("/login")
    await context.close()
  }, 60_000)

  it("answers a sign-in post that is not a form with a 4xx, never a 500, and refuses another site's", async () => {
    const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${origin}${path}`, { method: "POST", body, headers: { origin, ...headers }, redirect: "manual" })
    const credentials = "email=demo%40example.com&password=sesame-demo"
    const plain = await post("/login", credentials, { "content-type": "text/plain" })
    expect(plain.status).toBe(401)
    expect(await plain.text()).toContain("Wrong email or password.")
    for (const path of ["/login", "/login/dev-idp"]) {
      expect((await post(path, "--x\r\nnot a part", { "content-type": "multipart/form-data; boundary=x" })).status).toBe(400)
    }
    const crossSite = await post("/login", credentials, { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers.getSetCookie()).toEqual([])
  })
})
