/**
 * What the Express and Hono newcomer tests share: both guides (docs/start/express.md, docs/start/hono.md) make
 * the same app, a Node.js server in TypeScript compiled by `tsc` under NodeNext, with Sesame's
 * built-in pages (a `Credentials` provider named "Staff account" and `Password()` with sign-up), a
 * guarded page `/account`, a guarded JSON route `/api/me` and a sign-out form posting to `/logout`.
 *
 * - {@link createServerApp} follows a guide up to an installed app, in a temporary folder that
 *   stands for the reader's home (`~` in the guide), outside this repository: `~/sesame` is this
 *   repository (a symbolic link), `~/sesame-packs` the tarballs, `~/my-app` the app. What the
 *   framework's own starter makes is the test's (`scaffold`); every block of the guide marked
 *   `saved as <path>` is written to that path; the install block's `npm pack` line says which
 *   packages to pack ({@link packInto}, shared by every newcomer test) and its `npm install` line
 *   is run as written, plus flags that keep it quick (the shared npm cache, no audit).
 * - {@link pinnedVersion}: the versions the starter's files get, those this repository pins.
 * - {@link typecheckReadme}: every TypeScript block of a package README, compiled with the app's
 *   TypeScript and `tsconfig.json` (NodeNext), beside the app.
 * - {@link newcomerFlow}: what the guides' "Run it" step describes, in Chromium.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import type { Browser, Page } from "playwright-core"
import { artifactsDir, describeViolations, freePort, launchBrowser, runAxe, saveScreenshot } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { block, commandLines, expandHome, guideBlocks, installStep, lockedVersion, newcomerHome, pinnedIn, writeGuideFiles, type GuideBlock } from "./guide.js"
import { packInto, repositoryRoot } from "./pack.js"
import { npmInstall, runLine, startServer, userEnv, type Server } from "./processes.js"

export type Framework = "express" | "hono" | "fastify"

export interface ServerApp {
  /** Stands for `~` in the guide. */
  readonly home: string
  readonly dir: string
  readonly blocks: readonly GuideBlock[]
  /** Seconds spent packing and installing. */
  readonly timings: { pack: number; install: number }
}

const seconds = (started: number) => (performance.now() - started) / 1000

/**
 * The version of `name` this repository pins, for the files a framework's starter writes: the
 * framework's example app (examples/<framework>), then its package (packages/<framework>, whose
 * tests run on it), then the workspace root, then the root lockfile (for a tool such as `tsx`
 * that only comes in through another package).
 */
export function pinnedVersion(name: string, framework: Framework): string {
  const pinned = pinnedIn(name, [join("examples", framework), join("packages", framework), "."])
  return pinned ?? lockedVersion(name)
}

/**
 * Follows a guide up to an installed app: `scaffold` makes what the framework's starter would
 * have (in `dir`, which exists), then the guide's files are written and its install line run.
 */
export async function createServerApp(framework: Framework, guidePath: string, scaffold: (dir: string, blocks: readonly GuideBlock[]) => void): Promise<ServerApp> {
  const blocks = guideBlocks(guidePath)
  const { home, dir, packs } = newcomerHome(framework)
  mkdirSync(dir)
  const { installLine, packages } = installStep(blocks)

  let started = performance.now()
  await packInto(packages, packs, installLine)
  const pack = seconds(started)

  scaffold(dir, blocks)
  writeGuideFiles(blocks, dir)

  started = performance.now()
  npmInstall(`${expandHome(installLine, home)} --prefer-offline --no-audit --no-fund`, dir, userEnv())
  return { home, dir, blocks, timings: { pack, install: seconds(started) } }
}

/** `tsc` of the app's own TypeScript, on the project `project`; throws with the compiler's output when it fails. Returns the seconds it took. */
export function tsc(app: ServerApp, project: string): number {
  return runLine(`node ${join(app.dir, "node_modules", "typescript", "bin", "tsc")} --noEmit -p ${project}`, app.dir, userEnv())
}

/**
 * Compiles every `ts` block of the README at `readmePath` with the app's TypeScript, its
 * dependencies and its `tsconfig.json` (NodeNext), in a folder beside the app (`~/readme-check`,
 * with the app's node_modules linked in), so that the app's own build never sees them. A block
 * whose first line names its file (`// src/app.ts`) is written there, as the README's imports
 * between blocks (`./app.js`) expect; any other is `src/<marker name>.ts`. Returns the files.
 */
export function typecheckReadme(app: ServerApp, readmePath: string): string[] {
  const dir = join(app.home, "readme-check")
  mkdirSync(join(dir, "src"), { recursive: true })
  symlinkSync(join(app.dir, "node_modules"), join(dir, "node_modules"))
  // The app's module kind ("type": "module"), which NodeNext reads from the nearest package.json.
  const { type } = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8")) as { type?: string }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, type }, null, 2)}\n`)
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: "../my-app/tsconfig.json", compilerOptions: { noEmit: true, rootDir: "./src" }, include: ["src"] }, null, 2),
  )
  const text = readFileSync(readmePath, "utf8")
  const files: string[] = []
  for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const code = match[1]!
    const named = /^\/\/ (src\/[\w./-]+\.ts)\n/.exec(code)?.[1]
    const marker = /<!-- example: ([\w-]+) [^\n]*-->\n$/.exec(text.slice(0, match.index))?.[1]
    const file = named ?? `src/${marker ?? `block-${files.length + 1}`}.ts`
    if (files.includes(file)) throw new Error(`${readmePath}: two blocks would be ${file}`)
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), code)
    files.push(file)
  }
  tsc(app, join(dir, "tsconfig.json"))
  return files
}

/** The guard's `401` body, the same in every integration. */
export const unauthorizedBody = { error: "Unauthorized", message: "Sign in first." }

/** The account `authorize` accepts in both guides, and one made on the sign-up page. */
export const ada = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace" }
export const grace = { email: "grace@example.com", password: "compiler pioneer 1952", name: "Grace Hopper" }

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

/** The form of the built-in sign-in page whose button is `button`. */
const formWith = (page: Page, button: string) => page.locator("form").filter({ has: page.getByRole("button", { name: button, exact: true }) })

/**
 * What the guides' "Run it" step describes, in Chromium at `origin`: the guard's two answers (a
 * `303` to the sign-in page with the way back, `401` JSON with the shared body), a sign-in in the
 * "Staff account" form and back on `/account`, the JSON route signed in, sign-out; then a new
 * account on the sign-up page (signed in at once, back on `/account`), sign-out, and a sign-in in
 * the "Password" form. Returns the page errors the browser reported.
 */
export async function newcomerFlow(browser: Browser, origin: string, suite: string, label: string): Promise<string[]> {
  const context = await browser.newContext({ baseURL: origin })
  context.setDefaultNavigationTimeout(60_000)
  context.setDefaultTimeout(30_000)
  const page = await context.newPage()
  const errors: string[] = []
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`))
  const shot = (name: string) => saveScreenshot(page, suite, `${label}-${name}`)
  const json = { accept: "application/json" }
  const account = page.getByTestId("account")
  const signOut = async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL((url) => url.pathname === "/")
    await expect.poll(() => page.locator("main p").first().textContent()).toBe("Not signed in.")
  }

  // The home page is public.
  await page.goto("/")
  await expect.poll(() => page.locator("main p").first().textContent()).toBe("Not signed in.")
  await accessible(page)
  await shot("1-home-signed-out")

  // The guard's answers as a client sees them: a 303 for a page, 401 JSON for a JSON client.
  const guarded = await context.request.get("/account", { maxRedirects: 0 })
  expect(guarded.status()).toBe(303)
  expect(guarded.headers()["location"]).toBe(`${origin}/auth/signin?callbackUrl=%2Faccount`)
  const refused = await context.request.get("/api/me", { headers: json })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toEqual(unauthorizedBody)

  // In the browser: the guard sends the visitor to the built-in sign-in page, with the way back.
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  expect(pathOf(page)).toBe("/auth/signin?callbackUrl=%2Faccount")
  await accessible(page)
  await shot("2-sign-in-page")

  // The credentials provider's form ("Staff account"), and back on the page asked for.
  const staff = formWith(page, "Sign in with Staff account")
  await staff.getByLabel("Email", { exact: true }).fill(ada.email)
  await staff.getByLabel("Password", { exact: true }).fill(ada.password)
  await staff.getByRole("button").click()
  await page.waitForURL((url) => url.pathname === "/account")
  await expect.poll(() => account.textContent()).toBe(`Signed in as ${ada.name} (${ada.email}).`)
  await page.reload()
  await expect.poll(() => account.textContent()).toBe(`Signed in as ${ada.name} (${ada.email}).`)
  await accessible(page)
  await shot("3-account-staff")
  const me = await context.request.get("/api/me", { headers: json })
  expect(me.status()).toBe(200)
  expect(((await me.json()) as { user: unknown }).user).toMatchObject({ name: ada.name, email: ada.email })

  // Sign-out, from the app's own form: signed out, and guarded again.
  await signOut()
  await shot("4-signed-out")
  expect((await context.request.get("/api/me", { headers: json })).status()).toBe(401)

  // Password(): a new account from the sign-in page's link, signed in at once, back on /account.
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  await page.getByRole("link", { name: "No account yet? Create one" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/signup")
  await accessible(page)
  await page.getByLabel("Name (optional)").fill(grace.name)
  await page.getByLabel("Email address").fill(grace.email)
  await page.getByLabel("Password", { exact: true }).fill(grace.password)
  await shot("5-sign-up")
  await page.getByRole("button", { name: "Create account" }).click()
  await page.waitForURL((url) => url.pathname === "/account")
  await expect.poll(() => account.textContent()).toBe(`Signed in as ${grace.name} (${grace.email}).`)
  await shot("6-account-new")
  await signOut()

  // And the new account's password, in the Password form.
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  const password = formWith(page, "Sign in with Password")
  await password.getByLabel("Email address").fill(grace.email)
  await password.getByLabel("Password", { exact: true }).fill(grace.password)
  await password.getByRole("button").click()
  await page.waitForURL((url) => url.pathname === "/account")
  await expect.poll(() => account.textContent()).toBe(`Signed in as ${grace.name} (${grace.email}).`)
  await shot("7-account-password")
  await signOut()
  await page.goto("/account")
  await page.waitForURL((url) => url.pathname === "/auth/signin")
  await context.close()
  return errors
}

export interface SuiteOptions {
  framework: Framework
  /** docs/start/<framework>.md */
  guidePath: string
  /** packages/<framework>/README.md, whose TypeScript blocks are compiled beside the app. */
  readmePath: string
  /** What the framework's starter makes, in the app's folder (see {@link createServerApp}). */
  scaffold: (dir: string, blocks: readonly GuideBlock[]) => void
  /** The start block's lines, as the test expects them (the port is the test's). */
  startLines: string[]
}

/**
 * The newcomer test of a guide, the same for Express and Hono:
 *
 * 1. Every code block has a marker, and each is a file or a command the test follows.
 * 2. `tsc` under NodeNext passes on the app as the guide writes it (the guide's `npm run build`),
 *    and on every TypeScript block of the package README.
 * 3. `npm run dev` without any `AUTH_*` variable and without `.env.local`, on a free port (`PORT`,
 *    which the guide's server reads): {@link newcomerFlow}; the log holds one warning, the
 *    development secret's, and no error; the secret's file is its owner's only.
 * 4. The guide's secret step, then its start step (its build ran in 2): the compiled server with
 *    `NODE_ENV=production`, `AUTH_URL` and `--env-file=.env.local`: the same flow, with neither a
 *    warning nor an error from Sesame in the log, and no page error.
 *
 * Screenshots: test-artifacts/screenshots/newcomer-<framework>/; what each server printed:
 * test-artifacts/newcomer-<framework>/*.log.
 */
export function newcomerSuite({ framework, guidePath, readmePath, scaffold, startLines }: SuiteOptions): void {
  const suite = `newcomer-${framework}`
  let app: ServerApp
  let browser: Browser
  const servers: Server[] = []

  beforeAll(async () => {
    app = await createServerApp(framework, guidePath, scaffold)
    browser = await launchBrowser()
    console.log(`[${suite}] pack ${app.timings.pack.toFixed(1)} s, npm install ${app.timings.install.toFixed(1)} s`)
  }, 10 * 60_000)

  afterAll(async () => {
    await browser?.close()
    for (const server of servers) await server.stop()
    if (app) rmSync(app.home, { recursive: true, force: true })
  })

  /** Starts a line of the guide on `port` (the guide's server reads `PORT`); resolves once Sesame answers. */
  async function start(line: string, port: number): Promise<Server> {
    const server = await startServer(line, app.dir, userEnv({ PORT: String(port) }), port, "/auth/providers", 120_000)
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

  describe(`${relative(repositoryRoot, guidePath)}, followed by a newcomer`, () => {
    it("has a marker on every code block, and a file or a command for each", () => {
      // guideBlocks() throws on a block without a marker; here, each one is used by this test.
      const used = new Set(["create-app", "install", "dev", "secret", "start"])
      for (const { name, file } of app.blocks) expect(file !== undefined || used.has(name), `block ${name}`).toBe(true)
    })

    it(`compiles under NodeNext: the guide's app (its build step), and every TypeScript block of ${relative(repositoryRoot, readmePath)}`, () => {
      const config = JSON.parse(readFileSync(join(app.dir, "tsconfig.json"), "utf8")) as { compilerOptions: { module: string } }
      expect(config.compilerOptions.module).toBe("NodeNext")
      // The first line of the guide's start step, `npm run build`: `tsc`, which type-checks the app
      // and writes dist/. Run here, before the dev server, so that this test says what fails to
      // compile; the production test then runs the rest of the step.
      const lines = commandLines(block(app.blocks, "start"))
      expect(lines).toEqual(startLines)
      const build = runLine(lines[0]!, app.dir, userEnv())
      expect(existsSync(join(app.dir, "dist"))).toBe(true)
      const started = performance.now()
      const files = typecheckReadme(app, readmePath)
      console.log(`[${suite}] npm run build ${build.toFixed(1)} s; tsc of ${files.length} README blocks (${files.join(", ")}) ${seconds(started).toFixed(1)} s`)
      expect(files.length).toBeGreaterThan(1)
    }, 120_000)

    it("works in npm run dev without a secret: the guard, sign-in with both providers, the JSON route, sign-out", async () => {
      const lines = commandLines(block(app.blocks, "dev"))
      expect(lines).toEqual(["npm run dev"])
      expect(existsSync(join(app.dir, ".env.local"))).toBe(false)
      const port = await freePort()
      const started = performance.now()
      const server = await start(lines[0]!, port)
      const ready = seconds(started)
      let errors: string[]
      let output: string
      try {
        errors = await newcomerFlow(browser, `http://localhost:${port}`, suite, "dev")
      } finally {
        output = await stop(server, "dev")
      }
      console.log(`[${suite}] npm run dev answered after ${ready.toFixed(1)} s, the flow took ${(seconds(started) - ready).toFixed(1)} s`)
      expect(output, output).not.toContain("[sesame][error]")
      // What the guide's "Run it" step says: one warning, the development secret's, in a file that
      // only its owner reads.
      const warnings = output.split("\n").filter((line) => line.startsWith("[sesame][warn]"))
      expect(warnings, output).toHaveLength(1)
      expect(warnings[0]).toContain("missing-secret-development")
      expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
      expect(errors).toEqual([])
    }, 4 * 60_000)

    it("works as a production build, with the secret from the guide's command, NODE_ENV=production and AUTH_URL", async () => {
      for (const line of commandLines(block(app.blocks, "secret"))) runLine(expandHome(line, app.home), app.dir, userEnv())
      expect(readFileSync(join(app.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=[A-Za-z0-9_-]{43}$/m)

      // The build (the step's first line) ran in the compile test.
      const lines = commandLines(block(app.blocks, "start"))
      expect(existsSync(join(app.dir, "dist"))).toBe(true)
      const port = await freePort()
      const started = performance.now()
      const server = await start(lines[1]!.replace("localhost:3000", `localhost:${port}`), port)
      let errors: string[]
      let output: string
      try {
        errors = await newcomerFlow(browser, `http://localhost:${port}`, suite, "start")
      } finally {
        output = await stop(server, "start")
      }
      console.log(`[${suite}] the production server and the flow ${seconds(started).toFixed(1)} s`)
      expect(output, output).not.toContain("[sesame][error]")
      expect(output, output).not.toContain("[sesame][warn]")
      expect(errors).toEqual([])
    }, 4 * 60_000)
  })
}
