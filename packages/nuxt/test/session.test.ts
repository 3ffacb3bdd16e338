/**
 * The auth route and the session on the server: `sesameHandler` answers as the core's `Auth()`
 * does (bodies, HEAD, the socket's address); `sessionMiddleware` sets `event.context.session`, reads
 * once per request whoever asks, keeps the session alive on whatever the route answers, leaves the
 * auth routes unread, and fails closed; `getServerSession` needs a configuration without it.
 */
import { MemoryAdapter } from "@sesame/core/adapters"
import { createApp, createRouter, defineEventHandler } from "h3"
import { afterEach, describe, expect, it, vi } from "vitest"
import { getServerSession, sesameHandler, sessionMiddleware } from "@sesame/nuxt/server"
import { aliceCredentials, recordingLogger } from "../../core/test/helpers.js"
import { appFor, config, CookieJar, cookieNames, liveSessionCookies, serveApp, signInAlice, users, type Running } from "./helpers.js"

const running: Running[] = []
async function serve(...args: Parameters<typeof appFor>): Promise<Running> {
  const app = await serveApp(appFor(...args))
  running.push(app)
  return app
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

describe("sesameHandler", () => {
  it("answers the session, the CSRF token, the providers and the built-in sign-in page; signs in through the form it shows", async () => {
    const app = await serve(config())
    expect(await (await app.call("/auth/session")).json()).toBeNull()
    expect(Object.keys((await (await app.call("/auth/providers")).json()) as object)).toEqual(["credentials"])
    const page = await app.call("/auth/signin")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain("default-src")
    const jar = new CookieJar()
    const { csrfToken } = (await (await app.call("/auth/csrf", { jar })).json()) as { csrfToken: string }
    const answer = await app.call("/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: users.alice.password } })
    expect(answer.status).toBe(302)
    expect(liveSessionCookies(answer)).toHaveLength(1)
    expect(((await (await app.call("/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
    expect(await (await app.call("/auth/session", { method: "HEAD" })).text()).toBe("")
  })

  it("throws a TypeError for a configuration that is not an object, when the route is made", () => {
    expect(() => sesameHandler(undefined as never)).toThrow(/configuration object/)
    expect(() => sessionMiddleware(null as never)).toThrow(/configuration object/)
  })
})

describe("sessionMiddleware and getServerSession", () => {
  it("sets event.context.session: null signed out, the session once signed in", async () => {
    const app = await serve(config())
    const jar = new CookieJar()
    expect(await (await app.call("/", { jar })).json()).toEqual({ user: null })
    const signedIn = await signInAlice(app, jar)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe(`${app.origin}/dashboard`)
    expect(((await (await app.call("/", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
    expect(await (await app.call("/dashboard", { jar })).text()).toBe("dashboard of Alice")
  })

  it("keeps the session alive: the renewed cookie goes out with the route's answer, made private", async () => {
    const app = await serve(config({ session: { updateAge: 0 } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const before = jar.get("sesame.session-token")
    for (const path of ["/", "/read", "/api/me"]) {
      const answer = await app.call(path, { jar })
      expect(cookieNames(answer), path).toEqual(["sesame.session-token"])
      expect(answer.headers.get("cache-control"), path).toBe("private, no-store")
    }
    expect(jar.get("sesame.session-token")).not.toBe(before)
    const anonymous = await app.call("/")
    expect(cookieNames(anonymous)).toEqual([])
  })

  it("reads a database session once per request (the middleware, the guard and the route all ask), and keeps it alive", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const adapter = MemoryAdapter()
    const app = await serve(config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { strategy: "database", updateAge: 0 }, callbacks: { session: sessionCallback } }), (router) => {
      router.get("/dashboard/read", defineEventHandler(async (event) => `read ${(await getServerSession(event))?.user?.name}`))
    })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    sessionCallback.mockClear()
    const page = await app.call("/dashboard/read", { jar })
    expect(await page.text()).toBe("read Alice")
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
  })

  it("does not read the auth routes' requests: the route answers for itself, with its own cookie only", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const app = await serve(config({ session: { updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    sessionCallback.mockClear()
    const answer = await app.call("/auth/session", { jar })
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(cookieNames(answer)).toEqual(["sesame.session-token"])
  })

  it("fails closed: a session read that throws is logged and the request is signed out", async () => {
    const { lines, logger } = recordingLogger()
    const app = await serve(
      config({
        logger,
        callbacks: {
          session: () => {
            throw new Error("the app's session callback failed")
          },
        },
      }),
    )
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call("/", { jar })).json()).toEqual({ user: null })
    expect(lines.some((line) => line.includes("the app's session callback failed"))).toBe(true)
    expect((await app.call("/dashboard", { jar })).status).toBe(303)
  })

  it("getServerSession without the middleware takes the configuration; without either it throws the TypeError that says what to add", async () => {
    const auth = config()
    const jar = new CookieJar()
    await signInAlice(await serve(auth), jar)
    const bare = createApp()
    const router = createRouter()
    router.get("/given", defineEventHandler(async (event) => `given ${(await getServerSession(event, auth))?.user?.name}`))
    router.get(
      "/bare",
      defineEventHandler(async (event) => {
        try {
          return await getServerSession(event)
        } catch (error) {
          return { error: String(error) }
        }
      }),
    )
    bare.use(router)
    const app = await serveApp(bare)
    running.push(app)
    expect(await (await app.call("/given", { jar })).text()).toBe("given Alice")
    expect(((await (await app.call("/bare")).json()) as { error: string }).error).toMatch(/^TypeError: getServerSession\(event, …\) needs Sesame's configuration/)
  })
})
