/**
 * Attacks on a Fastify app built as the README says, over a listening server: a shared cache made
 * to keep one visitor's renewed session cookie for the next, and a guarded route reached by another
 * spelling or method. Each attack fails; the legitimate request beside it works.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { requireSession, sessionHook } from "@sesame/fastify"
import { appWith, config, cookieLine, CookieJar, listen, send, signInAlice } from "./helpers.js"

describe("making a shared cache keep a visitor's renewed session cookie", () => {
  /** The session read on every request (renewing the JWT each time), then pages that say they are public. */
  async function app(options: AuthConfig) {
    const app = await appWith(options)
    app.addHook("onRequest", sessionHook(options))
    app.get("/logo.txt", async (_request, reply) => reply.header("cache-control", "public, max-age=86400").type("text/plain").send("a public logo"))
    app.get("/news", async (_request, reply) => {
      reply.header("cache-control", "public, max-age=600")
      return "today's news"
    })
    return listen(app)
  }

  it("a reply carrying the renewed cookie says private, no-store, whatever the route set", async () => {
    const served = await app(config({ session: { updateAge: 0 } }))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    for (const path of ["/logo.txt", "/news"]) {
      const response = await send(served, path, { jar })
      expect(response.status).toBe(200)
      const renewed = cookieLine(response.headers.getSetCookie())
      expect(renewed).toBeDefined()
      expect(renewed).not.toMatch(/Max-Age=0/i)
      expect(response.headers.get("cache-control")).toBe("private, no-store")
    }
  })

  it("a reply without a cookie keeps the app's caching", async () => {
    const served = await app(config())
    const jar = new CookieJar()
    await signInAlice(served, jar)
    for (const [path, cacheControl] of [
      ["/logo.txt", "public, max-age=86400"],
      ["/news", "public, max-age=600"],
    ] as const) {
      const response = await send(served, path, { jar })
      expect(response.headers.getSetCookie()).toEqual([])
      expect(response.headers.get("cache-control")).toBe(cacheControl)
    }
  })
})

describe("reaching a guarded route by another spelling or method", () => {
  it.each(["/ACCOUNT", "/account/", "/Account?x=1", "/%61ccount", "/account%2F"])("%s is never the account page without a session", async (path) => {
    const app = await appWith(config())
    app.get("/account", { preHandler: requireSession(config()) }, async () => "PRIVATE")
    const served = await listen(app)
    for (const method of ["GET", "HEAD", "OPTIONS", "POST"]) {
      const response = await send(served, path, { method })
      expect(await response.text()).not.toContain("PRIVATE")
      if (method === "GET" || method === "HEAD") expect([303, 404]).toContain(response.status)
    }
  })
})
