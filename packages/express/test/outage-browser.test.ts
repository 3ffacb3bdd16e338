/**
 * A storage outage (issue 40) in Chromium, through an Express app with database sessions: Alice
 * signs in on the built-in sign-in page, the storage goes down, and the page guarded by
 * `requireSession` shows the "Try again in a moment" page (503), never the sign-in page; the page
 * passes axe and breaks no Content-Security-Policy. With the storage back, its "Try again" link
 * shows the guarded page to the same browser, still signed in.
 */
import express from "express"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describeViolations, launchBrowser, outage, runAxe, saveScreenshot, watchCsp } from "@sesame/testing"
import { requireSession, SesameAuth } from "@sesame/express"
import { alice, aliceCredentials, config, serve } from "./helpers.js"

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe("a storage outage in Chromium (Express)", () => {
  it("shows the unavailable page on the guarded page, not the sign-in page, and the same session once the storage is back", async () => {
    const storage = outage(MemoryAdapter())
    const options = config({
      adapter: storage.adapter,
      session: { strategy: "database" },
      providers: [aliceCredentials({ createUser: true })],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    })
    const app = express()
    app.use("/auth", SesameAuth(options))
    app.get("/account", requireSession(options), (_req, res) => {
      const user = (res.locals.session as Session).user
      res.type("html").send(`<!doctype html><html lang="en"><title>Account</title><main><h1>Account</h1><p id="user">${user?.email}</p></main></html>`)
    })
    const served = await serve(app)
    const context = await browser!.newContext({ baseURL: served.origin })
    const page = await context.newPage()
    const csp = await watchCsp(page)

    // Signed out, the guard sends the browser to the built-in sign-in page, and back once signed in.
    await page.goto("/account")
    await page.waitForURL((url) => url.pathname === "/auth/signin")
    await page.getByLabel("Username").fill("alice")
    await page.getByLabel("Password").fill(alice.password)
    await Promise.all([page.waitForURL(`${served.origin}/account`), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    expect(await page.locator("#user").textContent()).toBe(alice.email)

    storage.down()
    const response = await page.goto("/account")
    expect(response?.status()).toBe(503)
    expect(response?.headers()["retry-after"]).toBe("3")
    expect(new URL(page.url()).pathname).toBe("/account")
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Try again in a moment")
    expect(await page.getByLabel("Username").count()).toBe(0)
    await saveScreenshot(page, "express", "outage-unavailable")
    const axe = await runAxe(page)
    expect([...axe.byImpact.critical, ...axe.byImpact.serious], describeViolations(axe.violations)).toEqual([])
    expect(await csp.violations()).toEqual([])
    // The session cookie is still in the browser.
    expect((await context.cookies()).map(({ name }) => name)).toContain("sesame.session-token")

    storage.up()
    await Promise.all([page.waitForURL(`${served.origin}/account`), page.getByRole("link", { name: "Try again" }).click()])
    expect(await page.locator("#user").textContent()).toBe(alice.email)
    expect(await csp.violations()).toEqual([])
    await context.close()
  })
})
