/**
 * The shared browser support works as the other suites rely on it: a fresh profile per launch
 * (removed when the browser closes), a server that round-trips requests, CSP violations seen, axe
 * findings reported, screenshots kept.
 */
import { existsSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { artifactsDir, launchBrowser, runAxe, saveScreenshot, serve, watchCsp, type TestServer } from "@sesame/testing"

let browser: Browser
let server: TestServer
let profile = ""
const suiteStart = Date.now()

const goodPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fine</title></head>
<body><main><h1>Fine</h1><form method="POST" action="/echo"><label for="n">Name</label><input id="n" name="name"><button>Send</button></form></main></body></html>`
const badPage = `<!doctype html><html><head><title>Bad</title></head><body><main><h1>Bad</h1><input name="unlabelled"><img src="data:,"></main></body></html>`

beforeAll(async () => {
  browser = await launchBrowser()
  server = await serve(async (request) => {
    const url = new URL(request.url)
    const html = (body: string, headers: Record<string, string> = {}) =>
      new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } })
    if (url.pathname === "/echo") return Response.json({ method: request.method, body: await request.text(), cookie: request.headers.get("cookie") })
    if (url.pathname === "/bad") return html(badPage)
    if (url.pathname === "/strict") return html(`${goodPage}<style>body{color:red}</style>`, { "content-security-policy": "default-src 'none'" })
    return html(goodPage, { "set-cookie": "seen=1; Path=/" })
  })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  // Closing the browser removes its profile.
  if (profile) expect(existsSync(profile)).toBe(false)
})

describe("launchBrowser", () => {
  it("gives the launch a fresh temporary profile", async () => {
    const page = await browser.newPage()
    await page.goto("chrome://version")
    profile = /Profile Path\s*(\S+)/.exec(await page.innerText("body"))?.[1] ?? ""
    await page.close()
    expect(profile.startsWith(tmpdir())).toBe(true)
    // Made by this launch, not reused from an earlier run.
    expect(statSync(profile).birthtimeMs).toBeGreaterThanOrEqual(suiteStart - 1000)
  })
})

describe("serve", () => {
  it("round-trips methods, bodies and cookies through a real browser", async () => {
    const page = await browser.newPage()
    await page.goto(`${server.origin}/`)
    await page.fill("#n", "Ada")
    await Promise.all([page.waitForURL(`${server.origin}/echo`), page.click("button")])
    expect(JSON.parse(await page.innerText("body"))).toEqual({ method: "POST", body: "name=Ada", cookie: "seen=1" })
    await page.close()
  })
})

describe("watchCsp", () => {
  it("reports a blocked inline style, and nothing on a page without violations", async () => {
    const page = await browser.newPage()
    const csp = await watchCsp(page)
    await page.goto(`${server.origin}/`)
    expect(await csp.violations()).toEqual([])
    await page.goto(`${server.origin}/strict`)
    expect((await csp.violations()).join("\n")).toContain("style-src")
    await page.close()
  })
})

describe("runAxe", () => {
  it("finds nothing serious on a sound page and reports violations by impact on a broken one", async () => {
    const page = await browser.newPage()
    await page.goto(`${server.origin}/`)
    const good = await runAxe(page)
    expect([...good.byImpact.critical, ...good.byImpact.serious]).toEqual([])
    await page.goto(`${server.origin}/bad`)
    const bad = await runAxe(page)
    const ids = bad.violations.map((v) => v.id)
    expect(ids).toEqual(expect.arrayContaining(["html-has-lang", "label", "image-alt"]))
    expect(bad.byImpact.critical.map((v) => v.id)).toContain("label")
    await page.close()
  })
})

describe("saveScreenshot", () => {
  it("writes a PNG under test-artifacts/screenshots/<suite>/", async () => {
    const page = await browser.newPage()
    await page.goto(`${server.origin}/`)
    const path = await saveScreenshot(page, "testing", "sound page")
    expect(path).toBe(`${artifactsDir}screenshots/testing/sound-page.png`)
    expect(statSync(path).size).toBeGreaterThan(1000)
    await page.close()
  })
})
