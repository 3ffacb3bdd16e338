/**
 * A newcomer's first hour with Sesame in their own Nuxt app, as docs/start/nuxt.md tells it: a
 * fresh Nuxt 4 app made by hand as the guide's first step says (`npm create nuxt` downloads its
 * templates from GitHub), outside this repository, with the guide's code blocks (see nuxt-app.ts),
 * installed from the packed tarballs and its server code type-checked, then driven in Chromium:
 *
 * 1. `npm run dev` (`nuxt dev`) without any AUTH_* variable, as a newcomer first runs it: the JSON
 *    route answers 401 to a visitor who is not signed in; the header's `<NuxtLink>` to the
 *    dashboard, a client-side navigation the server never sees, meets the route middleware
 *    `sesame-auth`, which sends the visitor to the built-in sign-in page with the way back; a wrong
 *    password is refused there; the credentials provider brings them back with `user.id`; the
 *    session is in the server's HTML and in the browser (`useSession()`, hydrated); the JSON route
 *    answers the user; the header's `useSession().signOut()` signs out, and the server
 *    middleware's guard turns the dashboard's document away again; an account made on the
 *    built-in sign-up page (`Password()`) signs in, out, and in again with its password.
 * 2. The guide's secret step (`sesame secret --write`), then its start step: `npm run build` and
 *    Nitro's server (`node .output/server/index.mjs`) with `NODE_ENV=production`, `AUTH_URL` and
 *    the secret: the same flow, with nothing from Sesame in the log but the wrong password.
 * 3. The same server without the secret, then without `AUTH_URL`: the auth endpoints answer 500
 *    and the log names the missing variable, as the guide's deploy step says.
 *
 * Screenshots of each step: test-artifacts/screenshots/newcomer-nuxt/; what each server printed:
 * test-artifacts/newcomer-nuxt/*.log.
 */
import { readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { freePort, launchBrowser } from "@sesame/testing"
import { linkGuardedFlow } from "./browser-steps.js"
import { block, commandLines, unusedBlocks } from "./guide.js"
import { followSecretStep } from "./hand-made-app.js"
import { createNuxtApp, guidePath, nuxtEnv, type NuxtApp } from "./nuxt-app.js"
import { expectRefusedWithoutEither, keptServers, runLine } from "./processes.js"

const ada = { email: "ada@example.com", password: "analytical engine", name: "Ada Lovelace", id: "ada" }
const suite = "newcomer-nuxt"
/** Nuxt DevTools' panel, on every page of `nuxt dev`: not the app's (see accessible()). */
const devTools = "nuxt-devtools-frame"

let app: NuxtApp
let browser: Browser
const servers = keptServers(suite, "/auth/providers")

beforeAll(async () => {
  app = await createNuxtApp()
  browser = await launchBrowser()
  const t = app.timings
  console.log(`[newcomer nuxt] pack ${t.pack.toFixed(1)} s, npm install (and nuxt prepare) ${t.install.toFixed(1)} s, tsc ${t.check.toFixed(1)} s`)
}, 10 * 60_000)

afterAll(async () => {
  await browser?.close()
  await servers.stopAll()
  if (app) rmSync(app.home, { recursive: true, force: true })
})


/**
 * The `[sesame][warn]` lines of a server's output, but the wrong password's (a visitor's error,
 * logged as a warning). `nuxt dev` prints them after its own ` WARN ` label.
 */
function warnings(output: string): string[] {
  return output.split("\n").filter((line) => /\[sesame\]\[warn\] (?!CredentialsSignin\b)/.test(line))
}

/**
 * Steps 5 to 8 of the guide in the browser (see the module's comment). Returns the page errors the
 * browser reported.
 */
function newcomerFlow(origin: string, label: string): Promise<string[]> {
  return linkGuardedFlow({ browser, origin, suite, label, account: ada, devTool: devTools })
}

describe("docs/start/nuxt.md, followed by a newcomer", () => {
  it("has a marker on every code block, and a file or a command for each", () => {
    // guideBlocks() throws on a block without a marker; here, each one is used by this test.
    expect(unusedBlocks(app.blocks, ["create-app", "install", "dev", "secret", "start"])).toEqual([])
  })

  it("is an app with Nuxt, Vue, Vue Router and Vite at the versions the guide names, and Sesame from the tarballs", () => {
    const { dependencies = {} } = app.manifest
    expect(Object.keys(dependencies).sort()).toEqual(["@node-rs/argon2", "@sesame/core", "@sesame/nuxt", "nuxt", "vite", "vue", "vue-router"])
    const guide = readFileSync(guidePath, "utf8")
    for (const name of ["nuxt", "vue", "vue-router", "vite"]) expect(guide).toContain(`\`${name}\` ${dependencies[name]}`)
  })

  it("works in npm run dev without a secret: guards (a <NuxtLink> and a document), refuses a wrong password, signs in (credentials, and a new Password() account), shows the session on the server and in the browser, answers JSON, signs out", async () => {
    const lines = commandLines(block(app.blocks, "dev"))
    expect(lines).toEqual(["npm run dev"])
    const port = await freePort()
    const started = performance.now()
    // The guide's line, on a free port of the loopback interface (Nuxt's own options).
    const server = await servers.start(`${lines[0]!} -- --port ${port} --host 127.0.0.1`, app.dir, nuxtEnv(), port)
    // `nuxt dev` answers with its loading page (503) until Vite and Nitro are ready.
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/auth/providers`)).status, { timeout: 180_000, interval: 500 }).toBe(200)
    const ready = (performance.now() - started) / 1000
    const { result: errors, output } = await servers.during(server, "dev", () => newcomerFlow(`http://localhost:${port}`, "dev"))
    console.log(`[newcomer nuxt] npm run dev answered after ${ready.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    // The development secret the guide describes: one file for the app, readable by its owner
    // only, and one warning for the run.
    expect(statSync(join(app.dir, "node_modules", ".cache", "sesame", "development-secret")).mode & 0o777).toBe(0o600)
    expect(warnings(output), output).toEqual([expect.stringMatching(/\[sesame\]\[warn\] missing-secret-development\b/)])
    expect(errors).toEqual([])
  }, 8 * 60_000)

  it("works in Nitro's production build, with NODE_ENV=production, AUTH_URL and the secret from the guide's command", async () => {
    followSecretStep(app, nuxtEnv())
    const lines = commandLines(block(app.blocks, "start"))
    expect(lines).toEqual(["npm run build", "NODE_ENV=production AUTH_URL=http://localhost:3000 node --env-file=.env.local .output/server/index.mjs"])
    const build = runLine(lines[0]!, app.dir, nuxtEnv())
    const port = await freePort()
    // The guide's line on a free port: PORT and HOST are how Nitro's server takes them.
    const server = await servers.start(lines[1]!.replaceAll("localhost:3000", `localhost:${port}`), app.dir, nuxtEnv({ PORT: String(port), HOST: "127.0.0.1" }), port)
    const { result: errors, output } = await servers.during(server, "start", () => newcomerFlow(`http://localhost:${port}`, "start"))
    console.log(`[newcomer nuxt] npm run build ${build.toFixed(1)} s`)
    expect(output, output).not.toContain("[sesame][error]")
    expect(warnings(output), output).toEqual([])
    expect(errors).toEqual([])
  }, 10 * 60_000)

  it("refuses to serve the production build without AUTH_SECRET, or without AUTH_URL, and the log says which", async () => {
    await expectRefusedWithoutEither(
      commandLines(block(app.blocks, "start"))[1]!,
      join(app.dir, ".env.local"),
      (line, port) => servers.start(line.replaceAll("localhost:3000", `localhost:${port}`), app.dir, nuxtEnv({ PORT: String(port), HOST: "127.0.0.1" }), port),
      (server, label) => servers.stop(server, label),
      "/auth/session",
    )
  }, 120_000)
})
