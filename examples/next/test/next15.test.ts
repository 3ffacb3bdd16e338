/**
 * The same app with Next.js 15 (webpack, `middleware.ts` on the Edge runtime), driven in Chromium
 * through the same flows. The origin comes from `AUTH_URL` here; the server listens on 127.0.0.1.
 *
 * Next.js 15 cannot share the workspace's node_modules (Next.js 16 is hoisted there), so the app
 * is copied to a temporary directory laid out like the workspace, with `@sesame/core` and
 * `@sesame/next` installed from the tarballs `npm pack` makes of them (as users get them) next to
 * next@15.5.29 (from npm's cache when it has it). `proxy.ts` is replaced by
 * `variants/next15/middleware.ts`, as the example's README says.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import type { DevIdp } from "@sesame/dev-idp"
import { launchBrowser } from "@sesame/testing"
import { appEnv, browserFlows, exampleDir, freePort, repositoryRoot, runStep, startApp, startIdp, type RunningApp } from "./harness.js"

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const rootPackage = JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
const examplePackage = JSON.parse(readFileSync(join(exampleDir, "package.json"), "utf8")) as {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

let workspace: string
let appDir: string
let idp: DevIdp
let app: RunningApp
let browser: Browser

/** The copy of the workspace: the tarballs, Next.js 15, and the app with middleware.ts. */
function prepare(): { install: number; build: number } {
  workspace = mkdtempSync(join(tmpdir(), "sesame-next15-"))
  runStep(npm, ["pack", "-w", "packages/core", "-w", "packages/next", "--pack-destination", workspace], repositoryRoot)
  const versionOf = (name: string) => (JSON.parse(readFileSync(join(repositoryRoot, "packages", name, "package.json"), "utf8")) as { version: string }).version
  writeFileSync(
    join(workspace, "package.json"),
    JSON.stringify({
      private: true,
      dependencies: {
        "@sesame/core": `file:./sesame-core-${versionOf("core")}.tgz`,
        "@sesame/next": `file:./sesame-next-${versionOf("next")}.tgz`,
        next: "15.5.29",
        react: examplePackage.dependencies.react,
        "react-dom": examplePackage.dependencies["react-dom"],
        typescript: rootPackage.devDependencies.typescript,
        "@types/node": rootPackage.devDependencies["@types/node"],
        "@types/react": examplePackage.devDependencies["@types/react"],
      },
    }),
  )
  const install = runStep(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], workspace)
  appDir = join(workspace, "examples", "next")
  mkdirSync(appDir, { recursive: true })
  for (const entry of ["app", "lib", "auth.ts", "next.config.mjs", "tsconfig.json", "package.json"]) {
    cpSync(join(exampleDir, entry), join(appDir, entry), { recursive: true })
  }
  cpSync(join(exampleDir, "variants", "next15", "middleware.ts"), join(appDir, "middleware.ts"))
  return { install, build: 0 }
}

const nextBin = () => join(workspace, "node_modules", "next", "dist", "bin", "next")

beforeAll(async () => {
  const timings = prepare()
  const port = await freePort()
  // localhost, not 127.0.0.1: Next.js 15 rewrites a middleware redirect to a loopback address to
  // `localhost` (Next.js 16 makes it relative), which would move the browser to another origin.
  const origin = `http://localhost:${port}`
  idp = await startIdp(origin)
  const env = appEnv(idp, { AUTH_URL: `${origin}/api/auth` })
  timings.build = runStep(process.execPath, [nextBin(), "build"], appDir, env)
  const started = performance.now()
  app = await startApp(nextBin(), appDir, port, env, origin)
  browser = await launchBrowser()
  console.log(
    `[next 15] npm install ${timings.install.toFixed(1)} s, next build ${timings.build.toFixed(1)} s, next start ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
}, 420_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await idp?.close()
  if (workspace) rmSync(workspace, { recursive: true, force: true })
})

describe("the example app on Next.js 15", () => {
  it("builds middleware.ts for the Edge runtime without the node:crypto backend", () => {
    const server = join(appDir, ".next", "server")
    const manifest = JSON.parse(readFileSync(join(server, "middleware-manifest.json"), "utf8")) as {
      middleware: Record<string, { files: string[] }>
    }
    const files = manifest.middleware["/"]?.files ?? []
    expect(files.length).toBeGreaterThan(0)
    const bundle = files.map((file) => readFileSync(join(appDir, ".next", file), "utf8")).join("\n")
    // The guard is in this bundle, with the WebCrypto backend (HKDF through crypto.subtle)…
    expect(bundle).toContain("guard: reading the session")
    expect(bundle).toContain('"HKDF"')
    // …and none of the node:crypto one.
    for (const nodeOnly of ["hkdfSync", "randomFillSync", "createCipheriv", "node:crypto"]) expect(bundle).not.toContain(nodeOnly)
  })

  it("passes the browser flows, with the guard running on the Edge runtime", async () => {
    const started = performance.now()
    await browserFlows(browser, app, "next15")
    console.log(`[next 15] browser flows ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }, 120_000)
})
