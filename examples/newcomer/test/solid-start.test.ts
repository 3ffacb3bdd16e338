/**
 * A newcomer's first hour with Sesame in their own SolidStart app, as docs/start/solid-start.md tells
 * it: a fresh SolidStart 2 app outside this repository, made of the guide's code blocks (see
 * solid-start-app.ts), installed from the packed tarballs and type-checked, then driven in
 * Chromium:
 *
 * 1. `npm run dev` without any AUTH_* variable, as a newcomer first runs it: a visit to /account
 *    lands on the built-in sign-in page with the way back, signing in brings the visitor back to
 *    /account (the return address), signed in, with `session.user.id` shown; an in-app link to
 *    the page while signed out reaches the sign-in page too (not an empty page); sign-out works.
 * 2. The guide's secret step (`sesame secret --write`), then its start step: `npm run build` and
 *    the built server (`node .output/server/index.mjs`, as SolidStart's docs start it) with
 *    `NODE_ENV=production` and `AUTH_URL`: the same flow, without a warning in the log.
 *
 * 3. The same server without the secret, then without `AUTH_URL`: the auth endpoints answer with
 *    the configuration error and the log names the missing variable, as the guide's deploy step
 *    says.
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-solid-start/; what each server
 * printed: test-artifacts/newcomer-solid-start/*.log.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { artifactsDir, describeViolations, freePort, launchBrowser, runAxe, saveScreenshot } from "@sesame/testing"
import { block, commandLines, expandHome } from "./guide.js"
import { repositoryRoot } from "./pack.js"
import { expectRefusedWithout, runLine, startServer, type Server } from "./processes.js"
import { createSolidStartApp, guidePath, type SolidStartApp } from "./solid-start-app.js"

const user = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "ada" }
const suite = "newcomer-solid-start"

/**
 * Errors of SolidStart's own development client, not of the app: its dev overlay imports a UMD
 * build (@jridgewell/resolve-uri, through @jridgewell/trace-mapping) that Vite's dependency
 * optimiser serves without a default export. They happen on every page of `vite dev`, with or
 * without Sesame, and never in the production build, where every page error fails the test.
 */
const frameworkDevErrors = /@jridgewell\/resolve-uri/

let app: SolidStartApp
let browser: Browser
const servers: Server[] = []

beforeAll(async () => {
  app = await createSolidStartApp()
  browser = await launchBrowser()
  const t = app.timings
  console.log(
    `[newcomer solid-start] node ${t.node.toFixed(1)} s, pack ${t.pack.toFixed(1)} s, npm install ${t.install.toFixed(1)} s, tsc ${t.typecheck.toFixed(1)} s`,
  )
}, 10 * 60_000)

afterAll(async () => {
  await browser?.close()
  for (const server of servers) await server.stop()
  if (app) rmSync(app.home, { recursive: true, force: true })
})

/** Starts a server line of the guide; resolves once it answers on 127.0.0.1:`port`. */
async function start(line: string, env: NodeJS.ProcessEnv, port: number): Promise<Server> {
  const server = await startServer(line, app.dir, env, port, "/api/auth/providers", 180_000)
  servers.push(server)
  return server
}

/** Stops the server and keeps what it printed as an artefact, beside the screenshots. */
async function stop(server: Server, label: string): Promise<string> {
  await server.stop()
  servers.splice(servers.indexOf(server), 1)
  const dir = join(artifactsDir, suite)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${label}.log`), server.output())
  return server.output()
}

/**
 * Polls until the assertion holds, for up to 30 s: the first pages of `vite dev` are compiled on
 * demand, and Vite reloads the page once it has bundled a dependency it meets for the first time.
 */
function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 30_000 })
}

const pathOf = (page: Page) => {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/**
 * No critical or serious accessibility violation on the page as it is. Checked in the production
 * build only: under `vite dev` every page also carries SolidStart's development toolbar, whose
 * contrast is the framework's, not the app's or Sesame's.
 */
async function accessible(page: Page, label: string): Promise<void> {
  if (label === "dev") return
  const { byImpact } = await runAxe(page)
  const blocking = [...byImpact.critical, ...byImpact.serious]
  expect(blocking, describeViolations(blocking)).toEqual([])
}

/**
 * The first visits to `vite dev`, before the flow the test checks. Vite bundles the dependencies it
 * meets in the browser the first time they are asked for (SolidStart's client entry reaches the
 * app through a virtual module its scan cannot follow), then reloads the page; a page that loaded
 * before the reload was announced can be left with two copies of solid-js, and stays inert until
 * it is reloaded. A newcomer sees the page reload once, or reloads it. Here the home page is loaded
 * until it is interactive (at most three times), and a link to the account page brings in the
 * server-function client. Returns the number of loads it took.
 */
async function warmUp(origin: string): Promise<number> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  const page = await context.newPage()
  try {
    let loads = 0
    for (;;) {
      loads++
      await page.goto("/")
      try {
        await page.getByRole("button", { name: "Sign in" }).waitFor({ timeout: 20_000 })
        break
      } catch (error) {
        if (loads === 3) throw error
      }
    }
    await page.getByRole("link", { name: "Account" }).click()
    await page.waitForURL((url) => url.pathname === "/api/auth/signin", { timeout: 60_000 })
    return loads
  } finally {
    await context.close()
  }
}

/**
 * What steps 5 to 7 of the guide describe, in the browser: the guards send the visitor to the
 * built-in sign-in page with the way back, signing in returns there, `user.id` is shown, and the
 * header signs out and in. Returns the page errors the browser reported.
 */
async function newcomerFlow(origin: string, label: string): Promise<string[]> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  context.setDefaultTimeout(60_000)
  const page = await context.newPage()
  const errors: string[] = []
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`))
  const shot = (name: string) => saveScreenshot(page, suite, `${label}-${name}`)
  const header = page.locator("nav")

  // The home page is public; once the browser has read the session, the header offers to sign in.
  await page.goto("/")
  await eventually(() => page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
  await accessible(page, label)
  await shot("1-home-signed-out")

  // A link inside the running app makes no request for the page: requireSession, in the page's
  // server function, redirects, and the browser loads the sign-in page (the router alone could
  // not show it). The way back is the page the link was on.
  await page.getByRole("link", { name: "Account" }).click()
  // The router's own navigation to /account is abandoned for the full load of the sign-in page;
  // on a busy machine waitForURL can see that abort (ERR_ABORTED) as its own failure, so poll the
  // address instead, then wait for the page.
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe("/api/auth/signin")
  await page.waitForLoadState("load")
  expect(pathOf(page)).toBe("/api/auth/signin?callbackUrl=%2F")

  // A visit to the page itself: the middleware redirects, with this very page as the way back.
  await page.goto("/account?tab=keys")
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(pathOf(page)).toBe(`/api/auth/signin?callbackUrl=${encodeURIComponent("/account?tab=keys")}`)
  await accessible(page, label)
  await shot("2-sign-in-page")

  await page.getByLabel("Email").fill(user.email)
  await page.getByLabel("Password").fill(user.password)
  await page.getByRole("button", { name: "Sign in with Credentials" }).click()

  // Back on the page asked for, signed in, and staying there.
  await page.waitForURL((url) => url.pathname === "/account")
  expect(pathOf(page)).toBe("/account?tab=keys")
  const account = page.getByTestId("account")
  await eventually(() => account.textContent()).toBe(`Signed in as ${user.name} (${user.email}), user id ${user.id}`)
  await page.reload()
  expect(pathOf(page)).toBe("/account?tab=keys")
  await eventually(() => account.textContent()).toContain(`user id ${user.id}`)
  // createSession() in the header knows too.
  await eventually(() => header.textContent()).toContain(`Signed in as ${user.name}`)
  await accessible(page, label)
  await shot("3-account-signed-in")

  // Sign-out from the header: home, signed out, and the page is guarded again.
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL((url) => url.pathname === "/")
  await eventually(() => page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
  await shot("4-signed-out")
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(pathOf(page)).toBe("/api/auth/signin?callbackUrl=%2Faccount")

  // The header's "Sign in" (signIn() from @sesame/solid-start/client) opens the same page, with
  // the page it was on as the way back.
  await page.goto("/")
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL((url) => url.pathname === "/api/auth/signin")
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/`)
  await shot("5-sign-in-from-header")
  await context.close()
  return errors
}

describe("docs/start/solid-start.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    const used = new Set(["install", "dev", "secret", "start", "solidstart-1-config"])
    for (const { name, file } of app.blocks) expect(file !== undefined || used.has(name), `block ${name}`).toBe(true)
  })

  it("names the versions it is tested with: those of the app's package.json", () => {
    const guide = readFileSync(guidePath, "utf8")
    const { dependencies } = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8")) as { dependencies: Record<string, string> }
    for (const name of ["@solidjs/start", "@solidjs/router", "solid-js", "vite", "nitro"]) expect(guide).toContain(`\`${name}\` ${dependencies[name]}`)
  })

  it("shows SolidStart 1.x's app.config.ts as examples/solid-start has it (built by that example's 1.x test)", () => {
    const config = readFileSync(join(repositoryRoot, "examples", "solid-start", "solidstart-1", "app.config.ts"), "utf8")
    expect(block(app.blocks, "solidstart-1-config").code).toBe(config)
  })

  it("works in npm run dev without a secret: signs in, comes back to the page asked for, shows user.id, signs out", async () => {
    const lines = commandLines(block(app.blocks, "dev"))
    expect(lines).toEqual(["npm run dev"])
    const port = await freePort()
    const started = performance.now()
    // The guide's line, on a free port of the loopback interface (Vite's own options).
    const server = await start(`${lines[0]!} -- --port ${port} --strictPort --host 127.0.0.1`, app.env(), port)
    const ready = (performance.now() - started) / 1000
    let errors: string[]
    let output: string
    try {
      const loads = await warmUp(`http://localhost:${port}`)
      console.log(`[newcomer solid-start] vite dev: the home page was interactive after ${loads} load(s)`)
      errors = await newcomerFlow(`http://localhost:${port}`, "dev")
    } finally {
      output = await stop(server, "dev")
    }
    console.log(`[newcomer solid-start] npm run dev answered after ${ready.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    // The development secret the guide describes: one file for the app, readable by its owner
    // only, and one warning for the run.
    expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
    expect(output.match(/\[sesame\]\[warn\] missing-secret-development\b/g), output).toHaveLength(1)
    expect(errors.filter((error) => !frameworkDevErrors.test(error))).toEqual([])
  }, 8 * 60_000)

  it("works in a production build, with the secret from the guide's command, NODE_ENV=production and AUTH_URL", async () => {
    for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, app.env())
    expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npm run build", "NODE_ENV=production AUTH_URL=http://localhost:3000 node --env-file=.env.local .output/server/index.mjs"])
    const build = runLine(lines[0]!, app.dir, app.env())
    const port = await freePort()
    // The guide's line on a free port: PORT and HOST are how Nitro's server takes them.
    const server = await start(lines[1]!.replace("localhost:3000", `localhost:${port}`), app.env({ PORT: String(port), HOST: "127.0.0.1" }), port)
    let errors: string[]
    let output: string
    try {
      errors = await newcomerFlow(`http://localhost:${port}`, "start")
    } finally {
      output = await stop(server, "start")
    }
    console.log(`[newcomer solid-start] npm run build ${build.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    expect(output, output).not.toContain("[sesame][warn]")
    expect(errors).toEqual([])
  }, 10 * 60_000)

  it("refuses to serve the production build without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    // The guide's start line, minus one of the two settings its deploy step says are needed.
    const line = commandLines(block(app.blocks, "start"))[1]!
    const envFile = join(app.dir, ".env.local")
    const cases = [
      { missing: "AUTH_SECRET" as const, line: line.replace(" --env-file=.env.local", "") },
      { missing: "AUTH_URL" as const, line: line.replace(/ AUTH_URL=\S+/, "") },
    ]
    for (const { missing, line: without } of cases) {
      expect(without, missing).not.toBe(line)
      // The secret is also in .env.local, which the server must not find by itself.
      await expectRefusedWithout(
        missing,
        envFile,
        (port) => start(without.replace("localhost:3000", `localhost:${port}`), app.env({ PORT: String(port), HOST: "127.0.0.1" }), port),
        (server) => stop(server, `start-without-${missing}`),
      )
    }
  }, 120_000)
})
