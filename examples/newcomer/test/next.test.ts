/**
 * A newcomer's first hour with Sesame in their own Next.js app, as docs/start/next.md tells it: a fresh
 * Next.js 16 app outside this repository, made of the guide's code blocks (see next-app.ts),
 * installed from the packed tarballs, then driven in Chromium:
 *
 * 1. `npm run dev` without any AUTH_* variable, as a newcomer first runs it: the guard sends the
 *    visitor of /dashboard to the built-in sign-in page, signing in brings them back to
 *    /dashboard, signed in (no loop), with `session.user.id` shown; sign-out works.
 * 2. The guide's secret step (`sesame secret --write`), then `npm run build` (which type-checks
 *    the guide's files, the session's type included) and `npm start` with `AUTH_URL`, as the
 *    deploy step says: the same flow.
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-next/; what each server printed:
 * test-artifacts/newcomer-next/{dev,start}.log.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { artifactsDir, describeViolations, freePort, launchBrowser, runAxe, saveScreenshot } from "@sesame/testing"
import { block, commandLines, expandHome } from "./guide.js"
import { createNextApp, type NextApp } from "./next-app.js"
import { expectRefusedWithout, runLine, startServer, userEnv, type Server } from "./processes.js"

const user = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "1" }

let app: NextApp
let browser: Browser
const servers: Server[] = []

beforeAll(async () => {
  app = await createNextApp()
  browser = await launchBrowser()
  console.log(`[newcomer next] pack ${app.timings.pack.toFixed(1)} s, npm install ${app.timings.install.toFixed(1)} s`)
}, 10 * 60_000)

afterAll(async () => {
  await browser?.close()
  for (const server of servers) await server.stop()
  if (app) rmSync(app.home, { recursive: true, force: true })
})

/** Starts a server line of the guide on a free port; the browser's origin is `http://localhost:<port>`, as the guide says. */
async function start(line: string, extraEnv: Record<string, string>, port: number): Promise<Server> {
  // PORT is how `next dev` and `next start` take a port without changing the guide's line; the
  // hostname keeps the server on the loopback interface.
  const server = await startServer(`${line} -- --hostname 127.0.0.1`, app.dir, userEnv({ PORT: String(port), ...extraEnv }), port, "/api/auth/providers", 180_000)
  servers.push(server)
  return server
}

/** Stops the server and keeps what it printed as an artefact, beside the screenshots. */
async function stop(server: Server, label: string): Promise<string> {
  await server.stop()
  servers.splice(servers.indexOf(server), 1)
  const dir = join(artifactsDir, "newcomer-next")
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${label}.log`), server.output())
  return server.output()
}

const pathOf = (page: Page) => {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/** No critical or serious accessibility violation on the page as it is. */
async function accessible(page: Page): Promise<void> {
  const { byImpact } = await runAxe(page)
  const blocking = [...byImpact.critical, ...byImpact.serious]
  expect(blocking, describeViolations(blocking)).toEqual([])
}

/**
 * What step 10 of the guide describes: home → Dashboard → the built-in sign-in page → back on
 * /dashboard, signed in, with the user's id → sign out from the header.
 */
async function newcomerFlow(origin: string, label: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  context.setDefaultTimeout(60_000)
  const page = await context.newPage()
  const shot = (name: string) => saveScreenshot(page, "newcomer-next", `${label}-${name}`)

  // The home page is public: the guard's matcher selects /dashboard only.
  await page.goto("/")
  expect(pathOf(page)).toBe("/")
  await expect.poll(() => page.locator("main p").textContent()).toBe("Not signed in.")
  await expect(page.getByRole("button", { name: "Sign in" }).isVisible()).resolves.toBe(true)
  await accessible(page)
  await shot("1-home-signed-out")

  // The guard sends the visitor to the built-in sign-in page, with the way back.
  await page.getByRole("link", { name: "Dashboard" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(pathOf(page)).toBe("/api/auth/signin?callbackUrl=%2Fdashboard")
  await accessible(page)
  await shot("2-sign-in-page")

  await page.getByLabel("Email").fill(user.email)
  await page.getByLabel("Password").fill(user.password)
  await page.getByRole("button", { name: "Sign in with Credentials" }).click()

  // Back on the dashboard, signed in, and staying there (the loop the issue found sent the user
  // back to the sign-in page here).
  await page.waitForURL((url) => url.pathname === "/dashboard")
  await expect.poll(() => page.locator("main p").textContent()).toBe(`Signed in as ${user.name} (${user.email}), user id ${user.id}.`)
  await page.reload()
  expect(pathOf(page)).toBe("/dashboard")
  await expect.poll(() => page.locator("main p").textContent()).toContain(`user id ${user.id}.`)
  // useSession() in the header knows too.
  await expect.poll(() => page.locator("header p").textContent()).toBe(`${user.name} Sign out`)
  await accessible(page)
  await shot("3-dashboard-signed-in")

  await page.goto("/")
  await expect.poll(() => page.locator("main p").textContent()).toBe(`Signed in as ${user.name}.`)
  await shot("4-home-signed-in")

  // Sign-out from the header: back home, signed out, and the dashboard is guarded again.
  await page.getByRole("button", { name: "Sign out" }).click()
  await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
  await page.goto("/")
  await expect.poll(() => page.locator("main p").textContent()).toBe("Not signed in.")
  await shot("5-signed-out")
  await page.goto("/dashboard")
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")

  // The header's "Sign in" (signIn() from @sesame/next/react) goes to the same page, and back.
  await page.goto("/")
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/`)
  await shot("6-sign-in-from-header")
  await context.close()
}

describe("docs/start/next.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    const used = new Set(["create-app", "tsconfig-paths", "install", "secret", "dev", "start"])
    for (const { name, file } of app.blocks) {
      expect(file !== undefined || used.has(name), `block ${name}`).toBe(true)
      if (file) expect(file, `block ${name}`).toMatch(/^[\w.[\]/-]+\.(ts|tsx)$/)
    }
  })

  it("warns rightly: without its import line, sesame.d.ts replaces @sesame/next's types", () => {
    const types = block(app.blocks, "types")
    const tsc = `node ${join("node_modules", "typescript", "bin", "tsc")} --noEmit -p .`
    const withoutImport = types.code.replace(/^import .*\n/m, "")
    expect(withoutImport).not.toBe(types.code)
    writeFileSync(join(app.dir, types.file!), withoutImport)
    try {
      const error = (() => {
        try {
          runLine(tsc, app.dir, userEnv())
        } catch (e) {
          return String(e)
        }
        return "compiled"
      })()
      // Sesame(…) in auth.ts: the package's default export is gone.
      expect(error).toMatch(/auth\.ts\(\d+,\d+\): error TS2349: This expression is not callable/)
    } finally {
      writeFileSync(join(app.dir, types.file!), types.code)
    }
  }, 120_000)

  it("works in next dev without a secret: signs in, shows session.user.id, signs out", async () => {
    const lines = commandLines(block(app.blocks, "dev"))
    expect(lines).toEqual(["npm run dev"])
    expect(readFileSync(join(app.dir, "package.json"), "utf8")).not.toContain("AUTH_SECRET")
    const port = await freePort()
    const started = performance.now()
    const server = await start(lines[0]!, {}, port)
    const ready = (performance.now() - started) / 1000
    let output: string
    try {
      await newcomerFlow(`http://localhost:${port}`, "dev")
    } finally {
      output = await stop(server, "dev")
    }
    console.log(`[newcomer next] next dev answered after ${ready.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    // What the guide's step 3 says: one warning that names the fix, and the development secret in
    // a file that only its owner reads.
    const warnings = output.split("\n").filter((line) => line.startsWith("[sesame][warn]"))
    expect(warnings, output).toHaveLength(1)
    expect(warnings[0]).toContain("AUTH_SECRET")
    expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
  }, 8 * 60_000)

  it("works after next build, with the secret from the guide's command and AUTH_URL", async () => {
    for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, userEnv())
    expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npm run build", "AUTH_URL=http://localhost:3000 npm start"])
    const build = runLine(lines[0]!, app.dir, userEnv())
    const port = await freePort()
    const server = await start(lines[1]!.replace("localhost:3000", `localhost:${port}`), {}, port)
    let output: string
    try {
      await newcomerFlow(`http://localhost:${port}`, "start")
    } finally {
      output = await stop(server, "start")
    }
    console.log(`[newcomer next] next build ${build.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    expect(output, output).not.toContain("[sesame][warn]")
  }, 10 * 60_000)

  it("refuses to run next start without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    // The guide's deploy step: both are needed in production. `npm start` as in the guide, minus one.
    const startLine = "npm start"
    const envFile = join(app.dir, ".env.local")
    const cases = [
      { missing: "AUTH_SECRET" as const, env: (port: number) => ({ AUTH_URL: `http://localhost:${port}` }) },
      { missing: "AUTH_URL" as const, env: () => ({}) },
    ]
    for (const { missing, env } of cases) {
      await expectRefusedWithout(missing, envFile, (port) => start(startLine, env(port), port), (server) => stop(server, `start-without-${missing}`))
    }
  }, 120_000)
})
