/**
 * The session on the server: `sessionMiddleware` (`c.get("session")`) and `getSession(c)`: one read
 * per request, the cookies that keep the session alive written on whatever response the route
 * makes (and never over a sign-out's), a planted cookie, and failing closed.
 */
import type { Adapter } from "@sesame/core/adapters"
import { MemoryAdapter } from "@sesame/core/adapters"
import { Hono } from "hono"
import { describe, expect, it, vi } from "vitest"
import { getSession, sesame, sessionMiddleware, type SesameVariables } from "@sesame/hono"
import { aliceCredentials, recordingLogger } from "../../core/test/helpers.js"
import { appFor, call, config, CookieJar, cookieNames, signInAlice } from "./helpers.js"

type Users = { user: { name: string } | null }

/** A configuration whose JWT is re-issued on every read, so that every read sets the cookie again. */
const renewing = () => config({ session: { updateAge: 0 } })

describe("sessionMiddleware", () => {
  it("sets c.get('session'): null when signed out, the session once signed in", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    expect(await (await call(app, "/", { jar })).json()).toEqual({ user: null })
    await signInAlice(app, jar)
    expect(((await (await call(app, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("keeps the session alive: the renewed cookie is on the page, made with c.json or as a plain Response", async () => {
    const app = appFor(renewing())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const before = jar.get("sesame.session-token")
    for (const path of ["/", "/raw"]) {
      const page = await call(app, path, { jar })
      expect(((await page.json()) as Users).user?.name).toBe("Alice")
      expect(cookieNames(page)).toEqual(["sesame.session-token"])
    }
    expect(jar.get("sesame.session-token")).not.toBe(before)
  })

  it("keeps a database session alive too, and reads the session once per request", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const adapter = MemoryAdapter()
    const updateSession = vi.spyOn(adapter, "updateSession")
    const app = appFor(config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    sessionCallback.mockClear()
    // The middleware, the guard and the route all ask; one read answers them.
    const page = await call(app, "/account/profile", { jar })
    expect(await page.text()).toBe("profile of Alice")
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(updateSession).toHaveBeenCalled()
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
  })

  it("leaves an upgraded connection's response (a WebSocket's 101) as it is", async () => {
    const auth = renewing()
    const app = appFor(auth)
    // What a worker answers an upgrade with; Node.js's Response cannot be made with status 101.
    app.get("/socket", () => Object.defineProperty(new Response(null), "status", { value: 101 }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const upgraded = await call(app, "/socket", { jar })
    expect(upgraded.status).toBe(101)
    expect(cookieNames(upgraded)).toEqual([])
  })

  it("does not read the session on the auth routes, even mounted before them: their own answer is the only one", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const auth = config({ session: { updateAge: 0 }, callbacks: { session: sessionCallback } })
    const app = new Hono()
    app.use("*", sessionMiddleware(auth))
    app.on(["GET", "POST"], "/auth/*", sesame(auth))
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: "correct horse" } })
    sessionCallback.mockClear()
    const session = await call(app, "/auth/session", { jar })
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(cookieNames(session)).toEqual(["sesame.session-token"])
  })

  it("never writes the renewed cookie over a sign-out's cleared one: the visitor is signed out", async () => {
    const app = appFor(renewing())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const signedOut = await call(app, "/logout", { jar, form: {} })
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toEqual([expect.stringMatching(/Max-Age=0/i)])
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(app, "/", { jar })).json()).toEqual({ user: null })
  })

  it("treats a planted or garbled session cookie as a signed-out visitor, and clears it", async () => {
    const app = appFor(config())
    for (const value of ["garbage", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC"]) {
      const page = await call(app, "/", { headers: { cookie: `sesame.session-token=${value}` } })
      expect(page.status).toBe(200)
      expect(await page.json()).toEqual({ user: null })
      expect(page.headers.getSetCookie()).toEqual([expect.stringMatching(/^sesame\.session-token=;.*Max-Age=0/i)])
    }
  })

  it("fails closed: an adapter that fails is logged and is a signed-out visitor, never a 500", async () => {
    const { lines, logger } = recordingLogger()
    const adapter: Adapter = {
      ...MemoryAdapter(),
      getSessionAndUser: () => Promise.reject(new Error("the database is down")),
    }
    const app = appFor(config({ adapter, logger, providers: [aliceCredentials({ createUser: true })] }))
    const page = await call(app, "/", { headers: { cookie: "sesame.session-token=a-database-session-token" } })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ user: null })
    // The core's session read logs the adapter's failure itself and answers no session.
    expect(lines.join("\n")).toMatch(/Reading the database session failed[\s\S]*the database is down/)
    const guarded = await call(app, "/account/profile", { headers: { cookie: "sesame.session-token=a-database-session-token" } })
    expect(guarded.status).toBe(303)
  })

  it("fails closed when the read throws (a configuration without a secret in production): logged, signed out", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_SECRET", undefined)
    vi.stubEnv("SESAME_SECRET", undefined)
    try {
      const { lines, logger } = recordingLogger()
      const app = appFor({ providers: [aliceCredentials()], logger, trustHost: true })
      const page = await call(app, "/", { headers: { cookie: "sesame.session-token=anything" } })
      expect(page.status).toBe(200)
      expect(await page.json()).toEqual({ user: null })
      expect(lines.join("\n")).toMatch(/sessionMiddleware could not read the session and treats the request as signed out: MissingSecret/)
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe("getSession(c)", () => {
  it("reads the session with the configuration given, and writes the renewed cookie once however often it is asked", async () => {
    const auth = renewing()
    const app = new Hono()
    app.on(["GET", "POST"], "/auth/*", sesame(auth))
    app.get("/twice", async (c) => {
      const first = await getSession(c, auth)
      const second = await getSession(c, auth)
      return c.json({ same: first === second, user: second?.user ?? null })
    })
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: "correct horse" } })
    const page = await call(app, "/twice", { jar })
    expect(await page.json()).toMatchObject({ same: true, user: { name: "Alice" } })
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
  })

  it("after the middleware, takes its configuration and its read", async () => {
    const app = appFor(renewing())
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const page = await call(app, "/read", { jar })
    expect(((await page.json()) as Users).user?.name).toBe("Alice")
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
  })

  it("without a configuration and without the middleware, throws a TypeError saying what to add", async () => {
    const app = new Hono<{ Variables: SesameVariables }>()
    app.get("/", async (c) => c.json(await getSession(c)))
    app.onError((error, c) => c.text(`${error.name}: ${error.message}`, 500))
    expect(await (await call(app, "/")).text()).toMatch(/^TypeError: getSession\(c, …\) needs Sesame's configuration on the request: add app\.use\("\*", sessionMiddleware\(config\)\)/)
  })

  it("lets the middleware run on a lazy configuration whose session is typed", async () => {
    type AppEnv = { Variables: SesameVariables; Bindings: { SECRET: string } }
    const app = new Hono<AppEnv>()
    app.use("*", sessionMiddleware<AppEnv>((c) => config({ secret: c.env.SECRET })))
    app.get("/", (c) => c.json({ signedIn: c.get("session") !== null }))
    expect(await (await call(app, "/", {}, { SECRET: "a-bound-secret-0123456789-abcdefghijklmnop" })).json()).toEqual({ signedIn: false })
  })
})
