/**
 * The session on the server: `sessionMiddleware` and `getSession(args)`: one read per request
 * through the router context, the cookies that keep the session alive on whatever response React
 * Router makes (a document, a `.data` response, a resource route's, a redirect), the auth route
 * left unread, failing closed, and `getSession` without the middleware.
 */
import { MemoryAdapter } from "@sesame/core/adapters"
import { RouterContextProvider } from "react-router"
import { describe, expect, it, vi } from "vitest"
import { getSession, sesame, sessionMiddleware } from "@sesame/react-router"
import { aliceCredentials, recordingLogger } from "../../core/test/helpers.js"
import { appFor, appOf, call, config, CookieJar, cookieNames, liveSessionCookies, rendered, serverErrors, signInAlice, singleFetch, users, type BuildOptions } from "./helpers.js"

type Args = { request: Request; context: unknown }

/** A configuration whose JWT is re-issued on every read, so that every read sets the cookie again. */
const renewing = () => config({ session: { updateAge: 0 } })

describe("sessionMiddleware and getSession", () => {
  it("the root loader's getSession is null signed out, the user once signed in", async () => {
    const app = appOf(config())
    const jar = new CookieJar()
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: null })
    await signInAlice(app, jar)
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toMatchObject({ user: { name: "Alice" } })
  })

  it("keeps the session alive: the renewed cookie is on a document, a .data response, a resource route's JSON, and a redirect; all private", async () => {
    const auth = renewing()
    const app = appFor(
      { middleware: [sessionMiddleware(auth)], loader: async (args: Args) => ({ user: (await getSession(args))?.user ?? null }) },
      {
        "routes/auth": { path: "auth/*", module: sesame(auth) },
        "routes/login": { path: "login", module: { action: async () => new Response(null) } },
        "routes/home": { index: true, module: { default: () => null } },
        "routes/json": { path: "json", module: { loader: async (args: Args) => Response.json({ user: (await getSession(args))?.user ?? null }, { headers: { "cache-control": "public, max-age=60" } }) } },
        "routes/moved": { path: "moved", module: { loader: () => Response.redirect("http://localhost:3000/", 302) } },
      },
    )
    const jar = new CookieJar()
    const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
    const before = jar.get("sesame.session-token")
    expect(before).toBeTruthy()
    for (const path of ["/", "/_root.data", "/json", "/moved"]) {
      const answer = await call(app, path, { jar })
      expect(cookieNames(answer), path).toEqual(["sesame.session-token"])
      expect(answer.headers.get("cache-control"), path).toBe("private, no-store")
    }
    expect((await call(app, "/moved", { jar })).status).toBe(302)
    expect(jar.get("sesame.session-token")).not.toBe(before)
    // Without a session there is nothing to write, and the answer is left as the route made it.
    const anonymous = await call(app, "/json")
    expect(cookieNames(anonymous)).toEqual([])
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=60")
  })

  it("reads a database session once per request, however many loaders and guards ask, and keeps it alive", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const adapter = MemoryAdapter()
    const updateSession = vi.spyOn(adapter, "updateSession")
    const app = appOf(config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { strategy: "database", updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    sessionCallback.mockClear()
    // The root's loader, the dashboard's loader and the guard all read it.
    const page = await call(app, "/dashboard", { jar })
    expect((await rendered(page)).loaderData["routes/dashboard"]).toEqual({ name: "Alice" })
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(updateSession).toHaveBeenCalled()
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
    // A client-side navigation's .data request: the same, once.
    sessionCallback.mockClear()
    const data = await call(app, "/dashboard.data", { jar })
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(await singleFetch(data)).toMatchObject({ "routes/dashboard": { data: { name: "Alice" } } })
  })

  it("does not read the auth route's requests (it answers for itself), and writes no cookie of its own there", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const app = appOf(config({ session: { updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    sessionCallback.mockClear()
    const answer = await call(app, "/auth/session", { jar })
    expect(answer.status).toBe(200)
    // The endpoint's own read, and only that one: the middleware did not read.
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(cookieNames(answer)).toEqual(["sesame.session-token"])
  })

  it("fails closed: a session read that throws is logged and the request is signed out, with no live session cookie", async () => {
    const { lines, logger } = recordingLogger()
    const app = appOf(
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
    const page = await call(app, "/", { jar })
    expect(page.status).toBe(200)
    expect((await rendered(page)).loaderData.root).toEqual({ user: null })
    expect(lines.some((line) => line.includes("the app's session callback failed"))).toBe(true)
    expect(liveSessionCookies(page)).toEqual([])
    // The guard turns it away like any visitor without a session.
    expect((await call(app, "/dashboard", { jar })).status).toBe(303)
  })

  it("without React Router's middleware (no future.v8_middleware): getSession(args, config) reads the session in a loader", async () => {
    const auth = config()
    const options: BuildOptions = { middleware: false }
    const app = appFor(
      { loader: async (args: Args) => ({ user: (await getSession(args, auth))?.user ?? null }) },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/home": { index: true, module: { default: () => null } } },
      options,
    )
    const jar = new CookieJar()
    const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toMatchObject({ user: { name: "Alice" } })
  })

  it("without the middleware, a load context shared by every request (a constant getLoadContext) never carries one visitor's session to the next", async () => {
    const auth = config()
    const shared = {}
    const app = appFor(
      { loader: async (args: Args) => ({ user: (await getSession(args, auth))?.user?.name ?? null }) },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/home": { index: true, module: { default: () => null } } },
      { middleware: false, loadContext: () => shared },
    )
    const jar = new CookieJar()
    const token = ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: "Alice" })
    expect((await rendered(await call(app, "/"))).loaderData.root).toEqual({ user: null })
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: "Alice" })
  })

  it("with React Router's middleware on but not Sesame's, a router context shared by every request never carries a session to the next visitor", async () => {
    const auth = config()
    const shared = new RouterContextProvider()
    const app = appFor(
      { loader: async (args: Args) => ({ user: (await getSession(args, auth))?.user?.name ?? null }) },
      { "routes/auth": { path: "auth/*", module: sesame(auth) }, "routes/home": { index: true, module: { default: () => null } } },
      { loadContext: () => shared },
    )
    const jar = new CookieJar()
    await signInAlice(appOf(auth), jar)
    expect((await rendered(await call(app, "/", { jar }))).loaderData.root).toEqual({ user: "Alice" })
    expect((await rendered(await call(app, "/"))).loaderData.root).toEqual({ user: null })
  })

  it("getSession(args) without the middleware nor a configuration throws the TypeError that says what to add", async () => {
    const app = appFor({ loader: async (args: Args) => ({ user: await getSession(args) }) }, { "routes/home": { index: true, module: { default: () => null } } }, { middleware: false })
    const page = await call(app, "/")
    expect(page.status).toBe(500)
    expect((await rendered(page)).errors?.root?.message).toBe("Unexpected Server Error")
    expect(String(serverErrors.at(-1))).toMatch(/^TypeError: getSession\(args, …\) needs Sesame's configuration/)
    const error = await getSession({ request: new Request("http://localhost:3000/"), context: {} }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect(String(error)).toMatch(/sessionMiddleware\(authConfig\).*v8_middleware/)
  })

  it("with v8_passThroughRequests (the .data URL as it is), the session is read and kept alive the same", async () => {
    const app = appOf(renewing(), { passThrough: true })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const data = await call(app, "/dashboard.data", { jar })
    expect(await singleFetch(data)).toMatchObject({ "routes/dashboard": { data: { name: "Alice" } } })
    expect(cookieNames(data)).toEqual(["sesame.session-token"])
  })
})
