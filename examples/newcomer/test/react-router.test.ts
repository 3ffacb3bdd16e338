/**
 * A newcomer's first hour with Sesame in their own React Router app, as docs/start/react-router.md
 * tells it: a fresh React Router 7 app (framework mode, server rendering, route middleware) made by
 * hand as the guide's first step says, outside this repository, with the guide's code blocks (see
 * react-router-app.ts), installed from the packed tarballs and type-checked with the route types
 * `react-router typegen` writes, then driven in Chromium:
 *
 * 1. `npx react-router dev` without any AUTH_* variable, as a newcomer first runs it: the JSON
 *    route answers 401 to a visitor who is not signed in; the middleware's guard sends them from
 *    the dashboard to the built-in sign-in page with the way back; a wrong password is refused
 *    there; the credentials provider brings them back with `user.id`; the session shows on the
 *    server (the loaders) and in the browser (the root's `/auth/session` fetch); the JSON route
 *    answers the user; the header's links move between the pages without loading a document; the
 *    header's `<Form>` signs out and the guard is back; a missing page gets the root's
 *    `ErrorBoundary`; an account made on the built-in sign-up page (`Password()`) signs in, out,
 *    and in again with its password.
 * 2. The guide's secret step (`sesame secret --write`), then its start step: `npx react-router
 *    build` and React Router's own server (`react-router-serve`) with `AUTH_URL` and the secret
 *    from `.env.local`: the same flow, with nothing from Sesame in the log but the wrong password.
 * 3. The same server without the secret, then without `AUTH_URL`: the auth endpoints answer 500
 *    and the log names the missing variable, as the guide's deploy step says.
 * 4. `react-router dev` again: the header's `<Link>` to the dashboard, clicked by a visitor who is
 *    not signed in, a client-side navigation whose `.data` request meets the guard, ends on the
 *    built-in sign-in page with the way back (not on an empty page of the app).
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-react-router/; what each server
 * printed: test-artifacts/newcomer-react-router/*.log.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { artifactsDir, freePort, launchBrowser, saveScreenshot } from "@sesame/testing"
import { accessible, landOn, me, pathOf, signInWith } from "./browser-steps.js"
import { block, commandLines, expandHome } from "./guide.js"
import { expectRefusedWithout, runLine, startServer, userEnv, type Server } from "./processes.js"
import { createReactRouterApp, guidePath, type ReactRouterApp } from "./react-router-app.js"

const ada = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "ada" }
const suite = "newcomer-react-router"

let app: ReactRouterApp
let browser: Browser
const servers: Server[] = []

beforeAll(async () => {
  app = await createReactRouterApp()
  browser = await launchBrowser()
  const t = app.timings
  console.log(`[newcomer react-router] pack ${t.pack.toFixed(1)} s, npm install ${t.install.toFixed(1)} s, react-router typegen and tsc ${t.check.toFixed(1)} s`)
}, 10 * 60_000)

afterAll(async () => {
  await browser?.close()
  for (const server of servers) await server.stop()
  if (app) rmSync(app.home, { recursive: true, force: true })
})

/** Starts a server line of the guide; resolves once it answers on 127.0.0.1:`port`. */
async function start(line: string, env: NodeJS.ProcessEnv, port: number): Promise<Server> {
  const server = await startServer(line, app.dir, env, port, "/auth/providers", 180_000)
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

/** Polls until the assertion holds, for up to 30 s: `react-router dev` compiles the first pages on demand. */
function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 30_000 })
}

/** Until React Router has taken the page over (hydrated): before, a `<Link>` is a plain link that loads a document. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized === true)
}

/** Marks the document, so that {@link sameDocument} tells a client-side navigation from a page load. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(window as unknown as { newcomerMark?: boolean }).newcomerMark = true
  })
}

/** Whether the browser still shows the document {@link markDocument} marked. */
function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { newcomerMark?: boolean }).newcomerMark === true)
}

/**
 * Steps 5 to 7 of the guide in the browser (see the module's comment). Returns the page errors
 * the browser reported.
 */
async function newcomerFlow(origin: string, label: string): Promise<string[]> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  context.setDefaultTimeout(60_000)
  const page = await context.newPage()
  const errors: string[] = []
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`))
  const shot = (name: string) => saveScreenshot(page, suite, `${label}-${name}`)
  const server = page.locator("#server-session")
  const browserSession = page.locator("#browser-session")
  const header = page.locator("body > header")

  // Signed out, the JSON route answers a JSON client 401 (not the guard's redirect, not a 500).
  expect(await me(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })

  // The home page is public.
  await page.goto("/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  await accessible(page)
  await shot("1-home-signed-out")

  // The dashboard's address: the middleware sends the visitor to the built-in sign-in page, with
  // the way back. (The header's <Link>, a client-side navigation, is the last test's.)
  await page.goto("/dashboard")
  await landOn(page, "/auth/signin")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")
  await accessible(page)
  await shot("2-sign-in-page")

  // A wrong password: the sign-in page again, saying so, with the way back kept.
  await signInWith(page, "credentials", ada.email, "not the password")
  await eventually(() => new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
  await eventually(() => page.getByRole("alert").textContent()).toContain("sign you in")
  // (The page writes the way back as an absolute URL on the app's origin now.)
  expect(new URL(new URL(page.url()).searchParams.get("callbackUrl")!, origin).href).toBe(new URL("/dashboard", origin).href)
  await shot("3-wrong-password")

  // The credentials provider: back on the dashboard, signed in, with the id from the session callback.
  await signInWith(page, "credentials", ada.email, ada.password)
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toBe(`Signed in as ${ada.name} (${ada.email}), user id ${ada.id}.`)
  await eventually(() => browserSession.textContent()).toBe(`The browser sees ${ada.email}.`)
  await page.reload()
  expect(pathOf(page)).toBe("/dashboard")
  await eventually(() => server.textContent()).toContain(`user id ${ada.id}.`)
  await eventually(() => header.textContent()).toContain(ada.name)
  await accessible(page)
  await shot("4-dashboard-signed-in")

  // The JSON route, signed in.
  expect(await me(context)).toEqual({ status: 200, body: { id: ada.id, name: ada.name, email: ada.email } })

  // The header's links, client-side navigations without a document load: home (the root loader's
  // user), then the dashboard again (its .data request passes the guard, its loader runs).
  await hydrated(page)
  await markDocument(page)
  await page.getByRole("link", { name: "Home" }).click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe(`Signed in as ${ada.name}.`)
  await page.getByRole("link", { name: "Dashboard" }).click()
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toBe(`Signed in as ${ada.name} (${ada.email}), user id ${ada.id}.`)
  expect(await sameDocument(page)).toBe(true)

  // Sign-out from the header's <Form> (the action, then the loaders again, in the same document):
  // home, signed out, and both routes are guarded again.
  await page.getByRole("button", { name: "Sign out" }).click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => header.textContent()).not.toContain(ada.name)
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  expect(await sameDocument(page)).toBe(true)
  await shot("5-signed-out")
  expect((await me(context)).status).toBe(401)
  await page.goto("/dashboard")
  await landOn(page, "/auth/signin")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")

  // A page that does not exist: the root's ErrorBoundary, in the layout.
  const missing = await page.goto("/no-such-page")
  expect(missing?.status()).toBe(404)
  await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("404 Not Found")
  await eventually(() => header.getByRole("link", { name: "Sign in", exact: true }).count()).toBe(1)
  await shot("6-not-found")

  // Password(): an account made on the built-in sign-up page (linked from the sign-in page, with the
  // way back), signed in at once since the guide turns address confirmation off.
  await page.goto("/dashboard")
  await landOn(page, "/auth/signin")
  const newcomer = { email: `newcomer-${label}@example.com`, password: "correct horse battery staple" }
  await page.locator('a[href*="/auth/signup"]').click()
  await landOn(page, "/auth/signup")
  await accessible(page)
  const signUp = page.locator('form[action*="/auth/signup"]')
  await signUp.locator('input[name="email"]').fill(newcomer.email)
  await signUp.locator('input[name="password"]').fill(newcomer.password)
  await shot("7-sign-up")
  await signUp.locator('button[type="submit"]').click()
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toMatch(new RegExp(`^Signed in as ${newcomer.email} \\(${newcomer.email}\\), user id [\\w-]+\\.$`))
  const id = /user id ([\w-]+)\.$/.exec((await server.textContent())!)![1]!
  // No name was given on the sign-up page.
  expect(await me(context)).toEqual({ status: 200, body: { id, name: null, email: newcomer.email } })
  await shot("8-dashboard-new-account")

  // Out, and in again with that password, from the header's sign-in link.
  await hydrated(page)
  await page.getByRole("button", { name: "Sign out" }).click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await page.getByRole("link", { name: "Sign in", exact: true }).click()
  await landOn(page, "/auth/signin")
  await signInWith(page, "password", newcomer.email, newcomer.password)
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe(`Signed in as ${newcomer.email}.`)
  await page.goto("/dashboard")
  await eventually(() => server.textContent()).toContain(`user id ${id}.`)
  await shot("9-signed-in-with-password")
  await context.close()
  return errors
}

/** The `[sesame][warn]` lines of a server's output, but the wrong password's (a visitor's error, logged as a warning). */
function warnings(output: string): string[] {
  return output.split("\n").filter((line) => line.startsWith("[sesame][warn]") && !line.startsWith("[sesame][warn] CredentialsSignin"))
}

/**
 * The header's `<Link>` to the dashboard, clicked by a visitor who is not signed in once React
 * Router has hydrated the page: a client-side navigation, whose `/dashboard.data` request meets
 * the middleware's guard. Its redirect must take the browser to the built-in sign-in page, a
 * document of Sesame's resource route, with the way back to the page (not to its `.data` URL).
 */
async function signedOutClientNavigation(origin: string, label: string): Promise<void> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(120_000)
  context.setDefaultTimeout(60_000)
  const page = await context.newPage()
  await page.goto("/")
  await eventually(() => page.locator("#browser-session").textContent()).toBe("The browser sees no session.")
  await hydrated(page)
  const dataRequest = page.waitForRequest((request) => new URL(request.url()).pathname === "/dashboard.data")
  await page.getByRole("link", { name: "Dashboard" }).click()
  await dataRequest
  await landOn(page, "/auth/signin")
  await page.waitForLoadState("load")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")
  await saveScreenshot(page, suite, `${label}-link-signed-out`)
  // Sesame's page, not an empty page of the app that React Router rendered for the resource route.
  expect(await page.title(), await page.content()).toBe("Sign in")
  await expect.poll(() => page.locator('form[action$="/auth/callback/credentials"]').count()).toBe(1)
  await context.close()
}

describe("docs/start/react-router.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    const used = new Set(["create-app", "install", "typecheck", "dev", "secret", "start"])
    for (const { name, file } of app.blocks) expect(file !== undefined || used.has(name), `block ${name}`).toBe(true)
  })

  it("is an app with React Router at the versions the guide names, and Sesame from the tarballs", () => {
    const { dependencies = {}, devDependencies = {} } = app.manifest
    expect(Object.keys(dependencies).sort()).toEqual([
      "@node-rs/argon2",
      "@react-router/node",
      "@react-router/serve",
      "@sesame/core",
      "@sesame/react-router",
      "isbot",
      "react",
      "react-dom",
      "react-router",
    ])
    expect(Object.keys(devDependencies).sort()).toEqual(["@react-router/dev", "@types/node", "@types/react", "@types/react-dom", "typescript", "vite"])
    // The versions themselves: react-router-app.ts refuses one that is not the guide's.
    const guide = readFileSync(guidePath, "utf8")
    for (const name of ["react-router", "@react-router/node", "@react-router/serve", "@react-router/dev"]) expect(guide).toContain(`${name}@${dependencies[name] ?? devDependencies[name]}`)
  })

  it("works in react-router dev without a secret: guards, refuses a wrong password, signs in (credentials, and a new Password() account), shows the session on the server and in the browser, navigates client-side, answers JSON, signs out", async () => {
    const lines = commandLines(block(app.blocks, "dev"))
    expect(lines).toEqual(["npx react-router dev"])
    const port = await freePort()
    const started = performance.now()
    // The guide's line, on a free port of the loopback interface (Vite's own options).
    const server = await start(`${lines[0]!} --port ${port} --strictPort --host 127.0.0.1`, userEnv(), port)
    const ready = (performance.now() - started) / 1000
    let errors: string[]
    let output: string
    try {
      errors = await newcomerFlow(`http://localhost:${port}`, "dev")
    } finally {
      output = await stop(server, "dev")
    }
    console.log(`[newcomer react-router] react-router dev answered after ${ready.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    // The development secret the guide describes: one file for the app, readable by its owner
    // only, and one warning for the run.
    expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
    expect(warnings(output), output).toEqual([expect.stringMatching(/^\[sesame\]\[warn\] missing-secret-development\b/)])
    expect(errors).toEqual([])
  }, 8 * 60_000)

  it("works in react-router-serve's production build, with AUTH_URL and the secret from the guide's command", async () => {
    for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, userEnv())
    expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npx react-router build", "AUTH_URL=http://localhost:3000 node --env-file=.env.local node_modules/@react-router/serve/bin.js ./build/server/index.js"])
    const build = runLine(lines[0]!, app.dir, userEnv())
    const port = await freePort()
    // The guide's line on a free port: PORT and HOST are how react-router-serve takes them.
    const server = await start(lines[1]!.replaceAll("localhost:3000", `localhost:${port}`), userEnv({ PORT: String(port), HOST: "127.0.0.1" }), port)
    let errors: string[]
    let output: string
    try {
      errors = await newcomerFlow(`http://localhost:${port}`, "start")
    } finally {
      output = await stop(server, "start")
    }
    console.log(`[newcomer react-router] npx react-router build ${build.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    expect(warnings(output), output).toEqual([])
    expect(errors).toEqual([])
  }, 10 * 60_000)

  it("refuses to serve the production build without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    // The guide's start line, minus one of the settings its deploy step says are needed.
    const line = commandLines(block(app.blocks, "start"))[1]!
    const cases = [
      { missing: "AUTH_SECRET" as const, line: line.replace(" --env-file=.env.local", "") },
      { missing: "AUTH_URL" as const, line: line.replace(/AUTH_URL=\S+ /, "") },
    ]
    for (const { missing, line: without } of cases) {
      expect(without, missing).not.toBe(line)
      // Sesame's endpoints are under /auth here.
      await expectRefusedWithout(
        missing,
        join(app.dir, ".env.local"),
        (port) => start(without.replaceAll("localhost:3000", `localhost:${port}`), userEnv({ PORT: String(port), HOST: "127.0.0.1" }), port),
        (server) => stop(server, `start-without-${missing}`),
        "/auth/session",
      )
    }
  }, 120_000)

  it("takes a signed-out visitor's client-side navigation to the dashboard (a <Link>, its .data request guarded) to the built-in sign-in page", async () => {
    const port = await freePort()
    const server = await start(`${commandLines(block(app.blocks, "dev"))[0]!} --port ${port} --strictPort --host 127.0.0.1`, userEnv(), port)
    try {
      await signedOutClientNavigation(`http://localhost:${port}`, "dev")
    } finally {
      await stop(server, "dev-link-signed-out")
    }
  }, 4 * 60_000)
})
