/**
 * A storage outage, with database sessions on an adapter that fails as a driver does when its
 * server restarts: nobody is taken for signed out. The middleware and the guard answer the core's
 * `503` (a page for a browser, JSON for a script) with `Retry-After` and no cookie;
 * `requireSession` returns it; `getServerSession` throws the `StorageUnavailable`; signing in is a
 * `503` too, never a `500`; once the storage is back, the same cookie is the same session.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { defineEventHandler, getRequestURL } from "h3"
import { afterEach, describe, expect, it } from "vitest"
import { authorize, getServerSession, isStorageUnavailable, sessionMiddleware, StorageUnavailable } from "@sesame/nuxt/server"
import { aliceCredentials } from "../../core/test/helpers.js"
import { appFor, config, CookieJar, serveApp, signInAlice, users, type Running } from "./helpers.js"

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

async function outageApp() {
  const storage = outage(MemoryAdapter())
  const auth: AuthConfig = config({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
  // `/caught` is read by the route alone: behind the middleware, the middleware's 503 answers first.
  const app = await serveApp(
    appFor(auth, (router) => {
      router.get(
        "/caught",
        defineEventHandler(async (event) => {
          try {
            return { user: (await getServerSession(event, auth))?.user ?? null }
          } catch (error) {
            if (!isStorageUnavailable(error)) throw error
            return new Response(JSON.stringify({ caught: error.type, instance: error instanceof StorageUnavailable }), { status: 503 })
          }
        }),
      )
    }, [sessionMiddlewareExcept(auth, "/caught")]),
  )
  running.push(app)
  return { app, storage }
}

/** The session middleware for every path but `path`. */
function sessionMiddlewareExcept(auth: AuthConfig, path: string) {
  const middleware = sessionMiddleware(auth)
  const guard = authorize(auth, { protect: ["/dashboard"] })
  return defineEventHandler(async (event) => (getRequestURL(event).pathname === path ? undefined : ((await middleware(event)) ?? (await guard(event)))))
}

async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("a storage outage", () => {
  it("the middleware and the guard answer the core's 503 (a page, JSON), never the redirect or 401, and set no cookie; then the same cookie is the same session", async () => {
    const { app, storage } = await outageApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const cookie = jar.get("sesame.session-token")
    storage.down()
    const body = await expectUnavailable(await app.call("/dashboard?tab=keys", { jar, headers: page }), "page")
    expect(body).toContain('href="/dashboard?tab=keys"')
    await expectUnavailable(await app.call("/api/me", { jar, headers: json }), "json")
    await expectUnavailable(await app.call("/", { jar, headers: page }), "page")
    expect(jar.get("sesame.session-token")).toBe(cookie)
    storage.up()
    expect(await (await app.call("/dashboard", { jar })).text()).toBe("dashboard of Alice")
  })

  it("a visitor without a session cookie is not looked up: redirected as ever", async () => {
    const { app, storage } = await outageApp()
    storage.down()
    expect((await app.call("/dashboard")).status).toBe(303)
  })

  it("getServerSession throws the StorageUnavailable for the route to catch; signing in is a 503 with Retry-After, not a 500", async () => {
    const { app, storage } = await outageApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    storage.down()
    const caught = await fetch(`${app.origin}/caught`, { headers: { cookie: `sesame.session-token=${jar.get("sesame.session-token")}` } })
    expect(caught.status).toBe(503)
    expect(await caught.json()).toEqual({ caught: "StorageUnavailable", instance: true })
    const signIn = await signInAlice(app, new CookieJar())
    expect(signIn.status).toBe(503)
    expect(signIn.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(users.alice.email).toBe("alice@example.com")
  })
})
