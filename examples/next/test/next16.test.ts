/**
 * The example app, built and started with Next.js 16 (Turbopack, `proxy.ts` on the Node.js
 * runtime), driven in Chromium. The origin comes from the Host header (`AUTH_TRUST_HOST`), while
 * Next.js tells the route handlers `localhost`: the flows only work if Sesame never uses that.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import type { DevIdp } from "@sesame/dev-idp"
import { launchBrowser } from "@sesame/testing"
import { appEnv, browserFlows, exampleDir, freePort, repositoryRoot, runStep, signedInCookie, startApp, startIdp, type RunningApp } from "./harness.js"

const nextBin = join(repositoryRoot, "node_modules", "next", "dist", "bin", "next")

let idp: DevIdp
let app: RunningApp
let browser: Browser

beforeAll(async () => {
  const port = await freePort()
  idp = await startIdp(`http://127.0.0.1:${port}`)
  const env = appEnv(idp, { AUTH_TRUST_HOST: "true", SESAME_DEBUG: "1" })
  const build = runStep(process.execPath, [nextBin, "build"], exampleDir, env)
  const started = performance.now()
  app = await startApp(nextBin, exampleDir, port, env)
  browser = await launchBrowser()
  console.log(`[next 16] next build ${build.toFixed(1)} s, next start ${((performance.now() - started) / 1000).toFixed(1)} s`)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await idp?.close()
})

describe("the example app on Next.js 16", () => {
  it("passes the browser flows", async () => {
    const started = performance.now()
    await browserFlows(browser, app, "next16")
    console.log(`[next 16] browser flows ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }, 120_000)

  it("reads the session once per request, however many server components call auth()", async () => {
    const cookie = await signedInCookie(browser, app)
    const before = app.output().length
    // The layout and the page both call auth(); the proxy reads the session on its own.
    const response = await fetch(`${app.origin}/`, { headers: { cookie } })
    expect(await response.text()).toContain("Signed in as")
    const lines = app.output().slice(before).split("\n")
    expect(lines.filter((l) => l.includes("auth(): reading the session"))).toHaveLength(1)
    expect(lines.filter((l) => l.includes("guard: reading the session for /"))).toHaveLength(1)
  })

  it("runs the proxy on Node.js, with the node:crypto backend", () => {
    // Next.js 16 always runs proxy.ts on Node.js, so the `node` condition of `#crypto` applies.
    const dir = join(exampleDir, ".next", "server")
    const manifest = JSON.parse(readFileSync(join(dir, "middleware-manifest.json"), "utf8")) as { middleware: Record<string, unknown> }
    expect(Object.keys(manifest.middleware)).toHaveLength(0)
    // The proxy's entry loads its chunks by name; Turbopack splits the code among them as it likes.
    const entry = readFileSync(join(dir, "middleware.js"), "utf8")
    const chunks = [...entry.matchAll(/R\.c\("server\/(chunks\/[^"]+)"\)/g)].map((m) => readFileSync(join(dir, m[1]!), "utf8"))
    expect(chunks.some((text) => text.includes("guard: reading the session"))).toBe(true)
    expect(chunks.some((text) => text.includes("hkdfSync"))).toBe(true)
  })
})
