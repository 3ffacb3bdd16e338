/**
 * The example app as a newcomer runs it: `npm start` in its folder (a build when its inputs
 * changed, skipped otherwise; the local OpenID Provider beside it; adapter-node's server), then
 * Chromium through every flow, and a few requests a browser would not make: the built-in sign-in
 * page's post through SvelteKit's own origin check, another site's posts, a forged Host.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { freePort, launchBrowser, saveScreenshot } from "@sesame/testing"

const exampleDir = join(import.meta.dirname, "..")
const demo = { email: "demo@example.com", password: "sesame-demo" }

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
  // Its own process group, so that Ctrl-C (SIGINT to the group) reaches npm and the app alike.
  child = spawn("npm", ["start"], { cwd: exampleDir, env: shellEnv(port), stdio: ["ignore", "pipe", "pipe"], detached: true })
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 150_000
  while (!/Listening on/.test(output) || !/Sesame on SvelteKit: (\S+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) throw new Error(`npm start was not ready in time:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  origin = /Sesame on SvelteKit: (\S+)/.exec(output)![1]!
  const build = output.split("\n").find((line) => /vite build|up to date/.test(line))
  console.log(`[sveltekit example] ${build}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s at ${origin}`)
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

const shot = (page: Page, name: string) => saveScreenshot(page, "sveltekit", name)
const path = (page: Page) => new URL(page.url()).pathname

async function expectSignInPage(page: Page, back: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/signin")
  expect(new URL(new URL(page.url()).searchParams.get("callbackUrl")!, origin).pathname).toBe(back)
}

describe("the SvelteKit example in Chromium", () => {
  it("guards, signs in with credentials and with the OpenID Provider, and signs out", async () => {
    const context = await browser.newContext({ baseURL: origin })
    const page = await context.newPage()

    // Signed out: the layout guard (/account) and the hook guard (/admin) send the visitor to sign in.
    await page.goto("/account")
    await expectSignInPage(page, "/account")
    await shot(page, "1-account-guarded")

    // A wrong password: the form action catches CredentialsSignin and says so.
    await page.getByLabel("Email").fill(demo.email)
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.")
    await page.getByLabel("Password").fill(demo.password)
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await page.waitForURL((url) => url.pathname === "/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Demo User (demo@example.com)")
    await shot(page, "2-account-after-credentials")

    await page.goto("/admin")
    expect(await page.getByTestId("admin-user").textContent()).toBe("Hello, Demo User.")
    expect(await page.getByTestId("header-user").textContent()).toBe("Demo User")

    // Sign-out (the header's form action), then both guards apply again.
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname === "/")
    expect(await page.getByTestId("home-user").textContent()).toBe("Not signed in.")
    await page.goto("/admin")
    await expectSignInPage(page, "/admin")

    // Through the OpenID Provider: a real authorization code round trip.
    await page.getByRole("button", { name: "Sign in with Sesame Dev IdP" }).click()
    await page.waitForURL((url) => url.origin !== origin)
    await shot(page, "3-idp-login")
    await page.getByRole("button", { name: /Ada Lovelace/ }).click()
    await page.waitForURL((url) => url.origin === origin && url.pathname === "/admin")
    expect(await page.getByTestId("admin-user").textContent()).toBe("Hello, Ada Lovelace.")
    await page.goto("/account")
    expect(await page.getByTestId("account-user").textContent()).toBe("Ada Lovelace (ada@example.com)")
    await shot(page, "4-account-after-oidc")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname === "/")
    await page.goto("/account")
    await expectSignInPage(page, "/account")
    expect(path(page)).toBe("/signin")
    await context.close()
  }, 120_000)
})

describe("requests a browser would not make", () => {
  /** The cookies of `response` as a `Cookie` header. */
  const cookieHeader = (response: Response) => response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf(";"))).join("; ")

  it("the built-in sign-in page's post passes SvelteKit's origin check and signs in", async () => {
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

  it("another site's form posts are refused by SvelteKit before any sign-in", async () => {
    for (const target of ["/auth/callback/credentials", "/signin?/credentials", "/signin?/provider"]) {
      const response = await fetch(`${origin}${target}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ providerId: "credentials", ...demo }),
      })
      expect(response.status, target).toBe(403)
      expect(response.headers.getSetCookie(), target).toEqual([])
    }
  })

  it("a forged Host is never written into a guard's redirect; a JSON client gets 401", async () => {
    for (const target of ["/account", "/admin"]) {
      const response = await fetch(`${origin}${target}`, { redirect: "manual", headers: { host: "evil.example", "x-forwarded-host": "evil.example" } })
      expect(response.status, target).toBe(303)
      expect(response.headers.get("location"), target).not.toContain("evil.example")
    }
    const api = await fetch(`${origin}/api/me`, { headers: { accept: "application/json" } })
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
  })
})
