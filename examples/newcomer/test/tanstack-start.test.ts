/**
 * A newcomer's first hour with Sesame in their own TanStack Start app, as
 * docs/start/tanstack-start.md tells it: a fresh app made by TanStack's command line as the guide's
 * first step says, outside this repository, with the guide's code blocks (see
 * tanstack-start-app.ts), installed from the packed tarballs and type-checked with the route tree
 * the router's command line writes, then driven in Chromium:
 *
 * 1. `npm run dev` (`vite dev`) without any AUTH_* variable, as a newcomer first runs it: the JSON
 *    route answers 401 to a visitor who is not signed in; the header's `<Link>` to the dashboard, a
 *    client-side navigation the server sees no document of, meets the route's `beforeLoad` (the
 *    `requireUser` server function), which sends the visitor to the built-in sign-in page with the
 *    way back; a wrong password is refused there; the credentials provider brings them back with
 *    `user.id`; the session is in the server's HTML and in the browser (`/auth/session`); the
 *    header's links move between the pages without a document; the JSON route answers the user;
 *    the header's sign-out button (a server function through `useServerFn`) signs out, and the
 *    request middleware's guard turns the dashboard's document away again; an account made on the
 *    built-in sign-up page (`Password()`) signs in, out, and in again with its password.
 * 2. The guide's secret step (`sesame secret --write`), then its start step: `npm run build`, whose
 *    browser files hold nothing of Sesame or of the configuration (the request middleware is made
 *    in the app's `src/start.ts`, which TanStack Start's compiler strips), and srvx on the build
 *    with `AUTH_URL` and the secret: the same flow, with nothing from Sesame in the log but the
 *    wrong password.
 * 3. The same server without the secret, then without `AUTH_URL`: the auth endpoints answer 500
 *    and the log names the missing variable, as the guide's deploy step says.
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-tanstack-start/; what each server
 * printed: test-artifacts/newcomer-tanstack-start/*.log.
 */
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { freePort, launchBrowser } from "@sesame/testing"
import { landOn, linkGuardedFlow } from "./browser-steps.js"
import { block, commandLines, pinnedIn, unusedBlocks } from "./guide.js"
import { followSecretStep } from "./hand-made-app.js"
import { expectDevelopmentSecret, expectQuietProduction, expectRefusedWithoutEither, keptServers, runLine } from "./processes.js"
import { createTanStackStartApp, guidePath, tanstackEnv, type TanStackStartApp } from "./tanstack-start-app.js"

const ada = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "ada" }
const suite = "newcomer-tanstack-start"

let app: TanStackStartApp
let browser: Browser
const servers = keptServers(suite, "/auth/providers")

beforeAll(async () => {
  app = await createTanStackStartApp()
  browser = await launchBrowser()
  const t = app.timings
  console.log(`[newcomer tanstack-start] pack ${t.pack.toFixed(1)} s, npm install ${t.install.toFixed(1)} s, generate-routes and tsc ${t.check.toFixed(1)} s`)
}, 10 * 60_000)

afterAll(async () => {
  await browser?.close()
  await servers.stopAll()
  if (app) rmSync(app.home, { recursive: true, force: true })
})

/** The guide's srvx line on a free port instead of 3000 (PORT and HOST are how srvx takes it). */
function serve(line: string, port: number) {
  return servers.start(line.replaceAll("localhost:3000", `localhost:${port}`), app.dir, tanstackEnv({ PORT: String(port), HOST: "127.0.0.1" }), port)
}

/** The files under `dir` (the build's browser files) whose text contains one of `needles`. */
function filesContaining(dir: string, needles: readonly string[]): string[] {
  return (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[]).filter((file) => {
    const path = join(dir, file)
    return statSync(path).isFile() && needles.some((needle) => readFileSync(path, "utf8").includes(needle))
  })
}

/**
 * Steps 6 to 8 of the guide in the browser (see the module's comment and linkGuardedFlow), with
 * TanStack Start's own: signed in, the header's links move between the pages without a document
 * (the root's `beforeLoad`, then the dashboard's, through their server functions). Returns the page
 * errors the browser reported.
 */
function newcomerFlow(origin: string, label: string): Promise<string[]> {
  return linkGuardedFlow({
    browser,
    origin,
    suite,
    label,
    account: ada,
    signedIn: async ({ page, server, header, documents }) => {
      documents.length = 0
      await header.getByRole("link", { name: "Home" }).click()
      await landOn(page, "/")
      await expect.poll(() => server.textContent(), { timeout: 30_000 }).toBe(`Signed in as ${ada.name}.`)
      await header.getByRole("link", { name: "Dashboard" }).click()
      await landOn(page, "/dashboard")
      await expect.poll(() => server.textContent(), { timeout: 30_000 }).toBe(`Signed in as ${ada.name} (${ada.email}), user id ${ada.id}.`)
      expect(documents).toEqual([])
    },
  })
}

describe("docs/start/tanstack-start.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    expect(unusedBlocks(app.blocks, ["create-app", "install", "typecheck", "dev", "secret", "start"])).toEqual([])
  })

  it("is an app with the TanStack Start and TanStack Router that the guide names and examples/tanstack-start pins, and Sesame from the tarballs", () => {
    const { dependencies = {} } = app.manifest
    expect(Object.keys(dependencies).sort()).toEqual(["@node-rs/argon2", "@sesame/core", "@sesame/tanstack-start", "@tanstack/react-router", "@tanstack/react-start", "react", "react-dom", "srvx"])
    const guide = readFileSync(guidePath, "utf8")
    for (const name of ["@tanstack/react-start", "@tanstack/react-router"]) {
      expect(dependencies[name], name).toBe(pinnedIn(name, [join("examples", "tanstack-start")]))
      expect(guide).toContain(`\`${name}\` ${dependencies[name]}`)
    }
  })

  it("works in npm run dev without a secret: guards (a <Link> and a document), refuses a wrong password, signs in (credentials, and a new Password() account), shows the session on the server and in the browser, navigates client-side, answers JSON, signs out", async () => {
    expect(commandLines(block(app.blocks, "dev"))).toEqual(["npm run dev"])
    // What `npm run dev` runs, on a free port of the loopback interface instead of 3000.
    const script = (JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.dev
    expect(script).toBe("vite dev --port 3000")
    const port = await freePort()
    const started = performance.now()
    const server = await servers.start(`npx ${script!.replace("--port 3000", `--port ${port}`)} --strictPort --host 127.0.0.1`, app.dir, tanstackEnv(), port)
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/auth/providers`)).status, { timeout: 180_000, interval: 500 }).toBe(200)
    const ready = (performance.now() - started) / 1000
    const { result: errors, output } = await servers.during(server, "dev", () => newcomerFlow(`http://localhost:${port}`, "dev"))
    console.log(`[newcomer tanstack-start] npm run dev answered after ${ready.toFixed(1)} s`)
    expectDevelopmentSecret(app.dir, output)
    expect(errors).toEqual([])
  }, 8 * 60_000)

  it("works in the production build served by srvx, with AUTH_URL and the secret from the guide's command, and ships nothing of Sesame to the browser", async () => {
    followSecretStep(app, tanstackEnv())
    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npm run build", "AUTH_URL=http://localhost:3000 node --env-file=.env.local node_modules/srvx/bin/srvx.mjs serve --prod --entry dist/server/server.js --static ../client"])
    const build = runLine(lines[0]!, app.dir, tanstackEnv())
    // Neither the configuration (the demo account's password) nor Sesame's core (its log codes) is
    // in the browser's files: src/start.ts makes the middleware inside `.server(…)`.
    const client = join(app.dir, "dist", "client")
    expect(filesContaining(client, ["/_serverFn/"]).length, "the browser's files call server functions").toBeGreaterThan(0)
    expect(filesContaining(client, [ada.password, "missing-secret-development"])).toEqual([])
    const port = await freePort()
    const server = await serve(lines[1]!, port)
    const { result: errors, output } = await servers.during(server, "start", () => newcomerFlow(`http://localhost:${port}`, "start"))
    console.log(`[newcomer tanstack-start] npm run build ${build.toFixed(1)} s`)
    expectQuietProduction(output)
    expect(errors).toEqual([])
  }, 10 * 60_000)

  it("refuses to serve the production build without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    const line = commandLines(block(app.blocks, "start"))[1]!
    await expectRefusedWithoutEither(line, join(app.dir, ".env.local"), serve, (server, label) => servers.stop(server, label), "/auth/session")
  }, 120_000)
})
