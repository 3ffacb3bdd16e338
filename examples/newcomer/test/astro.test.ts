/**
 * A newcomer's first hour with Sesame in their own Astro app, as docs/start/astro.md tells it: a
 * fresh Astro 5 app (server output, the Node adapter) made by hand as the guide's first step says,
 * outside this repository, with the guide's code blocks (see astro-app.ts), installed from the
 * packed tarballs and type-checked, then driven in Chromium:
 *
 * 1. `npm run dev` (`astro dev`) without any AUTH_* variable, as a newcomer first runs it: the JSON
 *    route answers 401 to a visitor who is not signed in, the middleware's guard sends them from the
 *    dashboard to the built-in sign-in page with the way back, signing in with the credentials
 *    provider brings them back there with `user.id`, the session shows on the server (the pages)
 *    and in the browser (the layout's script), the JSON route answers the user, the header signs
 *    out; an account made on the built-in sign-up page (`Password()`) signs in, out, and in again
 *    with its password.
 * 2. The guide's secret step (`sesame secret --write`), then its start step: `npm run build` and the
 *    Node adapter's server (`node dist/server/entry.mjs`) with `NODE_ENV=production`, `AUTH_URL` and
 *    the secret: the same flow, with nothing from Sesame in the log. This is where Astro's
 *    `checkOrigin` refuses every form post when the Node adapter does not believe the `Host`
 *    (`security.allowedDomains`).
 * 3. The same server without the secret, then without `AUTH_URL`: the auth endpoints answer 500
 *    and the log names the missing variable, as the guide's deploy step says.
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-astro/; what each server printed:
 * test-artifacts/newcomer-astro/*.log.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { artifactsDir, freePort, launchBrowser, saveScreenshot } from "@sesame/testing"
import { astroEnv, createAstroApp, guidePath, type AstroApp } from "./astro-app.js"
import { accessible, landOn, me, pathOf, signInWith } from "./browser-steps.js"
import { block, commandLines, expandHome } from "./guide.js"
import { expectRefusedWithout, runLine, startServer, type Server } from "./processes.js"

const ada = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "ada" }
const suite = "newcomer-astro"

let app: AstroApp
let browser: Browser
const servers: Server[] = []

beforeAll(async () => {
  app = await createAstroApp()
  browser = await launchBrowser()
  const t = app.timings
  console.log(`[newcomer astro] pack ${t.pack.toFixed(1)} s, npm install ${t.install.toFixed(1)} s, astro sync and tsc ${t.check.toFixed(1)} s`)
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

/** Polls until the assertion holds, for up to 30 s: `astro dev` compiles the first pages on demand. */
function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 30_000 })
}

/**
 * Steps 5 to 8 of the guide in the browser: the JSON route's 401, the middleware's redirect to the
 * built-in sign-in page with the way back, sign-in with the credentials provider and with an
 * account made on the sign-up page, the session on the server and in the browser, the JSON route
 * signed in, and sign-out from the header. Returns the page errors the browser reported.
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
  // The page's own header: under `astro dev`, the dev toolbar adds headers of its own.
  const header = page.locator("body > header")

  // Signed out, the JSON route answers a JSON client 401 (not the guard's redirect, not a 500).
  expect(await me(context)).toEqual({ status: 401, body: { error: "Unauthorized", message: "Sign in first." } })

  // The home page is public.
  await page.goto("/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  await accessible(page)
  await shot("1-home-signed-out")

  // The header's link to the dashboard: the middleware sends the visitor to the built-in sign-in
  // page, with the way back.
  await page.getByRole("link", { name: "Dashboard" }).click()
  await eventually(() => new URL(page.url()).pathname).toBe("/auth/signin")
  await page.waitForLoadState("load")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")
  await accessible(page)
  await shot("2-sign-in-page")

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
  await shot("3-dashboard-signed-in")

  // The JSON route, signed in.
  expect(await me(context)).toEqual({ status: 200, body: { id: ada.id, name: ada.name, email: ada.email } })

  // Sign-out from the header: home, signed out, and both routes are guarded again.
  await page.getByRole("button", { name: "Sign out" }).click()
  await landOn(page, "/")
  await eventually(() => server.textContent()).toBe("Not signed in.")
  await eventually(() => browserSession.textContent()).toBe("The browser sees no session.")
  await shot("4-signed-out")
  expect((await me(context)).status).toBe(401)
  await page.goto("/dashboard")
  await landOn(page, "/auth/signin")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Fdashboard")

  // Password(): an account made on the built-in sign-up page (linked from the sign-in page, with the
  // way back), signed in at once since the guide turns address confirmation off.
  const newcomer = { email: `newcomer-${label}@example.com`, password: "correct horse battery staple" }
  await page.locator('a[href*="/auth/signup"]').click()
  await landOn(page, "/auth/signup")
  await accessible(page)
  const signUp = page.locator('form[action*="/auth/signup"]')
  await signUp.locator('input[name="email"]').fill(newcomer.email)
  await signUp.locator('input[name="password"]').fill(newcomer.password)
  await shot("5-sign-up")
  await signUp.locator('button[type="submit"]').click()
  await landOn(page, "/dashboard")
  await eventually(() => server.textContent()).toMatch(new RegExp(`^Signed in as ${newcomer.email} \\(${newcomer.email}\\), user id [\\w-]+\\.$`))
  const id = /user id ([\w-]+)\.$/.exec((await server.textContent())!)![1]!
  // No name was given on the sign-up page.
  expect(await me(context)).toEqual({ status: 200, body: { id, name: null, email: newcomer.email } })
  await shot("6-dashboard-new-account")

  // Out, and in again with that password.
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
  await shot("7-signed-in-with-password")
  await context.close()
  return errors
}

describe("docs/start/astro.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    const used = new Set(["create-app", "install", "dev", "secret", "start"])
    for (const { name, file } of app.blocks) expect(file !== undefined || used.has(name), `block ${name}`).toBe(true)
  })

  it("is an app with Astro and the Node adapter at the versions the guide names, and Sesame from the tarballs", () => {
    const { dependencies = {} } = app.manifest
    expect(Object.keys(dependencies).sort()).toEqual(["@astrojs/node", "@node-rs/argon2", "@sesame/astro", "@sesame/core", "astro"])
    const guide = readFileSync(guidePath, "utf8")
    for (const name of ["astro", "@astrojs/node"]) expect(guide).toContain(`\`${name}\` ${dependencies[name]}`)
  })

  it("works in npm run dev without a secret: guards, signs in (credentials, and a new Password() account), shows the session on the server and in the browser, answers JSON, signs out", async () => {
    const lines = commandLines(block(app.blocks, "dev"))
    expect(lines).toEqual(["npm run dev"])
    const port = await freePort()
    const started = performance.now()
    // The guide's line, on a free port of the loopback interface (Astro's own options).
    const server = await start(`${lines[0]!} -- --port ${port} --host 127.0.0.1`, astroEnv(), port)
    const ready = (performance.now() - started) / 1000
    let errors: string[]
    let output: string
    try {
      errors = await newcomerFlow(`http://localhost:${port}`, "dev")
    } finally {
      output = await stop(server, "dev")
    }
    console.log(`[newcomer astro] npm run dev answered after ${ready.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    // The development secret the guide describes: one file for the app, readable by its owner
    // only, and one warning for the run.
    expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
    expect(output.match(/\[sesame\]\[warn\] missing-secret-development\b/g), output).toHaveLength(1)
    expect(errors).toEqual([])
  }, 8 * 60_000)

  it("works in the Node adapter's production build, with NODE_ENV=production, AUTH_URL and the secret from the guide's command", async () => {
    for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, astroEnv())
    expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npm run build", "NODE_ENV=production AUTH_URL=http://localhost:4321 node --env-file=.env.local dist/server/entry.mjs"])
    const build = runLine(lines[0]!, app.dir, astroEnv())
    const port = await freePort()
    // The guide's line on a free port: PORT and HOST are how the Node adapter's server takes them.
    const server = await start(lines[1]!.replaceAll("localhost:4321", `localhost:${port}`), astroEnv({ PORT: String(port), HOST: "127.0.0.1" }), port)
    let errors: string[]
    let output: string
    try {
      errors = await newcomerFlow(`http://localhost:${port}`, "start")
    } finally {
      output = await stop(server, "start")
    }
    console.log(`[newcomer astro] npm run build ${build.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    expect(output, output).not.toContain("[sesame][warn]")
    expect(errors).toEqual([])
  }, 10 * 60_000)

  it("refuses to serve the production build without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    // The guide's start line, minus one of the settings its deploy step says are needed.
    const line = commandLines(block(app.blocks, "start"))[1]!
    const envFile = join(app.dir, ".env.local")
    const cases = [
      { missing: "AUTH_SECRET" as const, line: line.replace(" --env-file=.env.local", "") },
      { missing: "AUTH_URL" as const, line: line.replace(/ AUTH_URL=\S+/, "") },
    ]
    for (const { missing, line: without } of cases) {
      expect(without, missing).not.toBe(line)
      // Sesame's endpoints are under /auth here.
      await expectRefusedWithout(
        missing,
        envFile,
        (port) => start(without.replaceAll("localhost:4321", `localhost:${port}`), astroEnv({ PORT: String(port), HOST: "127.0.0.1" }), port),
        (server) => stop(server, `start-without-${missing}`),
        "/auth/session",
      )
    }
  }, 120_000)
})
