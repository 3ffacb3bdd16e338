/**
 * Attacks on an Express app (5 and 4) built as the README says, over a real HTTP server: guarded
 * files fetched by another spelling of their path, a shared cache made to keep one visitor's
 * renewed session cookie for the next, and a guarded route reached by another spelling or method.
 * Each attack fails; the legitimate request beside it works.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { requireSession, SesameAuth, sessionLocals } from "@sesame/express"
import { config, cookieLine, CookieJar, rawSend, send, serve, signInAlice, versions } from "./helpers.js"

/** The files the apps serve: public ones, and the guarded reports in a folder of their own. */
const files = mkdtempSync(join(tmpdir(), "sesame-express-attacks-"))
const publicDir = join(files, "public")
const reportsDir = join(files, "reports")
mkdirSync(publicDir)
mkdirSync(reportsDir)
writeFileSync(join(publicDir, "logo.txt"), "a public logo")
writeFileSync(join(reportsDir, "q3.txt"), "CONFIDENTIAL Q3 numbers")
afterAll(() => rmSync(files, { recursive: true, force: true }))

describe.each(versions)("attacks on $label", ({ express }) => {
  describe("fetching a guarded file by another spelling of its path", () => {
    /** The README's pattern: the reports' own `express.static` after the guard at its path, the public files served from the root. */
    function app(options: AuthConfig) {
      const app = express()
      app.use("/auth", SesameAuth(options))
      app.use("/reports", requireSession(options))
      app.use("/reports", express.static(reportsDir))
      app.use(express.static(publicDir))
      return app
    }

    it("a signed-in visitor gets the file; a visitor without a session is sent to sign in", async () => {
      const served = await serve(app(config()))
      expect((await send(served, "/reports/q3.txt")).status).toBe(303)
      const jar = new CookieJar()
      await signInAlice(served, jar)
      expect(await (await send(served, "/reports/q3.txt", { jar })).text()).toBe("CONFIDENTIAL Q3 numbers")
    })

    it.each(["/%72eports/q3.txt", "/reports%2Fq3.txt", "/%72eports%2Fq3.txt", "/REPORTS/q3.txt", "/reports/%2e%2e/reports/q3.txt", "/logo.txt/../reports/q3.txt"])(
      "%s never serves the file without a session",
      async (path) => {
        const served = await serve(app(config()))
        const response = await rawSend(served, path, {})
        expect(response.body).not.toContain("CONFIDENTIAL")
        expect([303, 404]).toContain(response.status)
      },
    )
  })

  describe("making a shared cache keep a visitor's renewed session cookie", () => {
    /** The session read on every request (renewing the JWT each time), then public files cached for a day and a page that says it is public. */
    function app(options: AuthConfig) {
      const app = express()
      app.use("/auth", SesameAuth(options))
      app.use(sessionLocals(options))
      app.use(express.static(publicDir, { maxAge: "1d" }))
      app.get("/news", (_req, res) => {
        res.set("Cache-Control", "public, max-age=600").send("today's news")
      })
      return app
    }

    it("a response carrying the renewed cookie says private, no-store, whatever the static files or the route set", async () => {
      const served = await serve(app(config({ session: { updateAge: 0 } })))
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

    it("a response without a cookie keeps the app's caching", async () => {
      const served = await serve(app(config()))
      const jar = new CookieJar()
      await signInAlice(served, jar)
      // A fresh session (the default updateAge) is not renewed: nothing is written.
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
    it.each(["/ACCOUNT", "/account/", "/Account?x=1", "/%61ccount"])("%s is never the account page without a session", async (path) => {
      const app = express()
      app.get("/account", requireSession(config()), (_req, res) => {
        res.send("PRIVATE")
      })
      const served = await serve(app)
      for (const method of ["GET", "HEAD", "OPTIONS"]) {
        const response = await send(served, path, { method })
        expect(await response.text()).not.toContain("PRIVATE")
        if (method !== "OPTIONS") expect([303, 404]).toContain(response.status)
      }
    })
  })
})
