/**
 * A storage outage (issue 40) in a real Hono app, through `app.fetch()`, with database sessions on
 * an adapter that fails as a driver does when its server restarts (`outage` of @sesame/testing): a
 * signed-in visitor is never taken for signed out. The guards (`requireSession`, `assertSession`)
 * and `sessionMiddleware` throw Hono's `HTTPException(503)` holding the core's answer (the page for
 * a page, JSON for a script), never the sign-in redirect or the 401, never a cookie; `getSession`
 * throws the `StorageUnavailable`, which Hono's error handler answers alike; a route that does not
 * read the session goes on; once the storage is back, the same cookie is the same session. Each
 * defence beside the flow it protects.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { Hono } from "hono"
import { HTTPException } from "hono/http-exception"
import { describe, expect, it } from "vitest"
import {
  assertSession,
  getSession,
  isStorageUnavailable,
  requireSession,
  sesame,
  sessionMiddleware,
  StorageUnavailable,
  type SesameVariables,
} from "@sesame/hono"
import { aliceCredentials } from "../../core/test/helpers.js"
import { appFor, call, config, CookieJar, origin, signInAlice, users } from "./helpers.js"

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

/** Every way of reading the session, on database (or JWT) sessions in a memory adapter that can go down. */
function outageApp(strategy: "database" | "jwt" = "database") {
  const storage = outage(MemoryAdapter())
  const logged: string[] = []
  const auth: AuthConfig = config({
    adapter: storage.adapter,
    session: { strategy },
    providers: [aliceCredentials({ createUser: true })],
    logger: { error: (error) => void logged.push(error.message), warn: (code) => void logged.push(code), debug: () => {} },
  })
  const app = new Hono<{ Variables: SesameVariables }>()
  app.on(["GET", "POST"], "/auth/*", sesame(auth))
  app.get("/public", (c) => c.text("public page"))
  app.use("/views/*", sessionMiddleware(auth))
  app.get("/views/home", (c) => c.text(`home of ${c.get("session")?.user?.name ?? "a stranger"}`))
  app.use("/account/*", requireSession(auth))
  app.get("/account/profile", (c) => c.text(`profile of ${c.get("session")?.user?.email}`))
  app.get("/api/me", requireSession(auth), (c) => c.json(c.get("session").user))
  app.get("/billing", async (c) => c.text(`billing of ${(await assertSession(c, auth)).user.email}`))
  app.get("/read", async (c) => c.json({ user: (await getSession(c, auth))?.user ?? null }))
  app.get("/caught", async (c) => {
    try {
      return c.json({ user: (await getSession(c, auth))?.user ?? null })
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      return c.json({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter }, 503)
    }
  })
  return { app, storage, logged }
}

/** Signs alice in through the auth routes' credentials callback. */
async function signInThroughEndpoints(app: Hono<{ Variables: SesameVariables }>, jar: CookieJar): Promise<void> {
  const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
  const response = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: users.alice.password } })
  expect(response.status).toBe(302)
  expect(jar.get("sesame.session-token")).toBeDefined()
}

/** Sesame's 503 (see `checkUnavailable`): the page or JSON; its body. */
async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("a storage outage", () => {
  it("the flow it protects: signed in, every way of reading the session sees Alice", async () => {
    const { app } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    expect(await (await call(app, "/account/profile", { jar, headers: page })).text()).toBe(`profile of ${users.alice.email}`)
    expect(await (await call(app, "/api/me", { jar, headers: json })).json()).toMatchObject({ email: users.alice.email })
    expect(await (await call(app, "/billing", { jar })).text()).toBe(`billing of ${users.alice.email}`)
    expect(await (await call(app, "/read", { jar })).json()).toMatchObject({ user: { email: users.alice.email } })
    expect(await (await call(app, "/views/home", { jar })).text()).toBe("home of Alice")
    expect(await (await call(app, "/public")).text()).toBe("public page")
  })

  it("requireSession answers a page with the unavailable page (503, Retry-After), not the sign-in redirect, and sets no cookie", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    const cookie = jar.get("sesame.session-token")
    storage.down()
    const body = await expectUnavailable(await call(app, "/account/profile?tab=keys", { jar, headers: page }), "page")
    // "Try again" reloads the page asked for, as a path.
    expect(body).toContain('href="/account/profile?tab=keys"')
    expect(body).not.toContain(users.alice.email)
    expect(jar.get("sesame.session-token")).toBe(cookie)
    expect(storage.refused.size).toBeGreaterThan(0)
  })

  it("requireSession answers a JSON client 503 JSON, not 401", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    await expectUnavailable(await call(app, "/api/me", { jar, headers: json }), "json")
    await expectUnavailable(await call(app, "/api/me", { jar, headers: { "x-requested-with": "XMLHttpRequest" } }), "json")
  })

  it("assertSession throws an HTTPException(503) whose cause is the StorageUnavailable; an app's onError answers it with getResponse()", async () => {
    const { app, storage } = outageApp()
    const causes: unknown[] = []
    app.onError((error, c) => {
      if (error instanceof HTTPException) {
        causes.push(error.cause)
        return error.getResponse()
      }
      return c.text("oops", 500)
    })
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    await expectUnavailable(await call(app, "/billing", { jar, headers: page }), "page")
    await expectUnavailable(await call(app, "/billing", { jar, headers: json }), "json")
    await expectUnavailable(await call(app, "/account/profile", { jar, headers: page }), "page")
    expect(causes).toHaveLength(3)
    for (const cause of causes) expect(isStorageUnavailable(cause)).toBe(true)
  })

  it("getSession throws the StorageUnavailable: the route catches it, or Hono's error handler answers the core's 503", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    const caught = await call(app, "/caught", { jar })
    expect(caught.status).toBe(503)
    expect(await caught.json()).toEqual({ caught: "StorageUnavailable", instance: true, retryAfter: 3 })
    await expectUnavailable(await call(app, "/read", { jar, headers: page }), "page")
    await expectUnavailable(await call(app, "/read", { jar, headers: json }), "json")
  })

  it("sessionMiddleware answers the routes it runs for with the core's 503, never as signed out", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    await expectUnavailable(await call(app, "/views/home", { jar, headers: page }), "page")
    await expectUnavailable(await call(app, "/views/home", { jar, headers: json }), "json")
  })

  it("a route that does not read the session, and the sign-in page, go on during the outage", async () => {
    const { app, storage } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    const open = await call(app, "/public", { jar, headers: page })
    expect(open.status).toBe(200)
    expect(await open.text()).toBe("public page")
    expect((await call(app, "/auth/signin", { headers: page })).status).toBe(200)
  })

  it("once the storage is back, the same cookie jar is signed in again, and nothing was logged per request", async () => {
    const { app, storage, logged } = outageApp()
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    for (const path of ["/account/profile", "/api/me", "/billing", "/read", "/views/home"]) expect((await call(app, path, { jar, headers: page })).status).toBe(503)
    storage.up()
    const back = await call(app, "/account/profile", { jar, headers: page })
    expect(back.status).toBe(200)
    expect(await back.text()).toBe(`profile of ${users.alice.email}`)
    expect(await (await call(app, "/read", { jar })).json()).toMatchObject({ user: { email: users.alice.email } })
    // The core logged the outage once when it began and once when it ended; the integration, nothing.
    expect(logged.filter((line) => line.includes("could not read the session"))).toEqual([])
    expect(logged.filter((line) => /storage could not be reached/i.test(line))).toHaveLength(1)
    expect(logged).toContain("storage-available-again")
  })

  it("a request without a session cookie during the outage is signed out, as always: the sign-in redirect and the 401, without touching the storage", async () => {
    const { app, storage } = outageApp()
    storage.down()
    const turnedAway = await call(app, "/account/profile", { headers: page })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/account/profile")}`)
    expect((await call(app, "/api/me", { headers: json })).status).toBe(401)
    expect(await (await call(app, "/read")).json()).toEqual({ user: null })
    expect(await (await call(app, "/views/home")).text()).toBe("home of a stranger")
    expect(storage.refused.size).toBe(0)
  })

  it("a session cookie the storage cannot check (planted, or stale) is not cleared during the outage", async () => {
    const { app, storage } = outageApp()
    storage.down()
    await expectUnavailable(await call(app, "/account/profile", { cookie: "sesame.session-token=planted", headers: page }), "page")
    storage.up()
    const turnedAway = await call(app, "/account/profile", { cookie: "sesame.session-token=planted", headers: page })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.getSetCookie().join()).toMatch(/sesame\.session-token=;.*Max-Age=0/i)
  })

  it("the README's app, with sessionMiddleware on every path: every route it runs for answers 503 during the outage, the auth routes not", async () => {
    const storage = outage(MemoryAdapter())
    const app = appFor(config({ adapter: storage.adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], logger: { error: () => {}, warn: () => {} } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/", { jar })).json()).toMatchObject({ user: { name: "Alice" } })
    storage.down()
    await expectUnavailable(await call(app, "/", { jar, headers: json }), "json")
    await expectUnavailable(await call(app, "/account/profile", { jar, headers: page }), "page")
    expect((await call(app, "/auth/csrf", { jar })).status).toBe(200)
    storage.up()
    expect(await (await call(app, "/", { jar })).json()).toMatchObject({ user: { name: "Alice" } })
  })

  it("JWT sessions need no storage to be read: the guarded page and the API go on during the outage", async () => {
    const { app, storage } = outageApp("jwt")
    const jar = new CookieJar()
    await signInThroughEndpoints(app, jar)
    storage.down()
    const profile = await call(app, "/account/profile", { jar, headers: page })
    expect(profile.status).toBe(200)
    expect(await profile.text()).toBe(`profile of ${users.alice.email}`)
    expect(await (await call(app, "/api/me", { jar, headers: json })).json()).toMatchObject({ email: users.alice.email })
    expect(await (await call(app, "/read", { jar })).json()).toMatchObject({ user: { email: users.alice.email } })
    expect(await (await call(app, "/views/home", { jar })).text()).toBe("home of Alice")
    expect(storage.refused.size).toBe(0)
  })
})
