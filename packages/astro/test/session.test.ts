/**
 * The session on the server: `sessionMiddleware` (`Astro.locals.session`) and `getSession`: one
 * read per request through `locals`, the cookies that keep the session alive on whatever response
 * the page or endpoint makes (an immutable one too), the auth endpoint and prerendered pages left
 * unread, and failing closed.
 */
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"
import { sequence } from "astro/middleware"
import { describe, expect, it, vi } from "vitest"
import { getSession, sesame, sessionMiddleware } from "@sesame/astro"
import { aliceCredentials, recordingLogger } from "../../core/test/helpers.js"
import { call, config, CookieJar, cookieNames, localsOf, siteFor, signInAlice, type Site } from "./helpers.js"

type Users = { user: { name: string } | null }

/** A configuration whose JWT is re-issued on every read, so that every read sets the cookie again. */
const renewing = () => config({ session: { updateAge: 0 } })

describe("sessionMiddleware", () => {
  it("sets Astro.locals.session: null when signed out, the session once signed in", async () => {
    const site = siteFor(config())
    const jar = new CookieJar()
    expect(await (await call(site, "/", { jar })).json()).toEqual({ user: null })
    await signInAlice(site, jar)
    expect(((await (await call(site, "/", { jar })).json()) as Users).user?.name).toBe("Alice")
  })

  it("keeps the session alive: the renewed cookie is on a page, an endpoint's answer, and an immutable Response.redirect", async () => {
    const site = siteFor(renewing())
    const jar = new CookieJar()
    await signInAlice(site, jar)
    const before = jar.get("sesame.session-token")
    for (const path of ["/", "/api/whoami", "/moved"]) {
      const answer = await call(site, path, { jar })
      expect(cookieNames(answer)).toEqual(["sesame.session-token"])
      expect(answer.headers.get("cache-control")).toBe("private, no-store")
    }
    expect((await call(site, "/moved", { jar })).status).toBe(302)
    expect(jar.get("sesame.session-token")).not.toBe(before)
    // Without a session there is nothing to write, and the answer is left as the route made it.
    const anonymous = await call(site, "/moved")
    expect(cookieNames(anonymous)).toEqual([])
    expect(anonymous.headers.get("cache-control")).toBeNull()
  })

  it("reads a database session once per request (the middleware, the guard and the page all ask), and keeps it alive", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const adapter = MemoryAdapter()
    const updateSession = vi.spyOn(adapter, "updateSession")
    const site = siteFor(config({ adapter, providers: [aliceCredentials({ createUser: true })], session: { strategy: "database", updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(site, jar)
    sessionCallback.mockClear()
    const page = await call(site, "/dashboard", { jar })
    expect(await page.text()).toBe("dashboard of Alice")
    sessionCallback.mockClear()
    const read = await call(site, "/read", { jar })
    expect(await read.text()).toBe("read Alice")
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(updateSession).toHaveBeenCalled()
    expect(cookieNames(read)).toEqual(["sesame.session-token"])
  })

  it("shares one locals between the middleware, the endpoint and the page: what the middleware set is what the page reads", async () => {
    const site = siteFor(config())
    const jar = new CookieJar()
    await signInAlice(site, jar)
    const locals: Record<string, unknown> = {}
    await call(site, "/read", { jar }, { locals })
    expect((locals as { session: { user: { name: string } } }).session.user.name).toBe("Alice")
  })

  it("does not read the auth endpoint's requests (the endpoint answers for itself), and writes no cookie of its own there", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const site = siteFor(config({ session: { updateAge: 0 }, callbacks: { session: sessionCallback } }))
    const jar = new CookieJar()
    await signInAlice(site, jar)
    sessionCallback.mockClear()
    const locals: Record<string, unknown> = {}
    const answer = await call(site, "/auth/session", { jar }, { locals })
    expect(sessionCallback).toHaveBeenCalledTimes(1)
    expect(cookieNames(answer)).toEqual(["sesame.session-token"])
    expect("session" in locals).toBe(false)
  })

  it("leaves a prerendered page unread, with locals.session null and no cookie: there is no visitor at build time", async () => {
    const sessionCallback = vi.fn(({ session }) => session)
    const auth = renewing()
    auth.callbacks = { session: sessionCallback }
    const site = siteFor(auth)
    const jar = new CookieJar()
    await signInAlice(site, jar)
    sessionCallback.mockClear()
    const locals: Record<string, unknown> = {}
    const built = await call(site, "/about", { jar }, { locals, clientAddress: null })
    expect(await built.text()).toBe("about")
    expect(locals.session).toBeNull()
    expect(cookieNames(built)).toEqual([])
    expect(sessionCallback).not.toHaveBeenCalled()
  })

  it("fails closed: a read that throws (no secret in production) is logged and is a signed-out visitor, the page still renders", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_SECRET", undefined)
    vi.stubEnv("SESAME_SECRET", undefined)
    try {
      const { lines, logger } = recordingLogger()
      const site = siteFor({ providers: [aliceCredentials()], logger, trustHost: true })
      const page = await call(site, "/", { headers: { cookie: "sesame.session-token=anything" } })
      expect(page.status).toBe(200)
      expect(await page.json()).toEqual({ user: null })
      expect(cookieNames(page)).toEqual([])
      expect(lines.join("\n")).toMatch(/sessionMiddleware could not read the session and treats the request as signed out: MissingSecret/)
      // The guard turns the visitor away as signed out.
      expect((await call(site, "/dashboard", { headers: { cookie: "sesame.session-token=anything" } })).status).toBe(303)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("fails closed: an adapter that fails is a signed-out visitor (the core logs it), never a 500", async () => {
    const { lines, logger } = recordingLogger()
    const adapter: Adapter = { ...MemoryAdapter(), getSessionAndUser: () => Promise.reject(new Error("the database is down")) }
    const site = siteFor(config({ adapter, logger, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })] }))
    const page = await call(site, "/", { headers: { cookie: "sesame.session-token=a-database-session-token" } })
    expect(page.status).toBe(200)
    expect(await page.json()).toEqual({ user: null })
    expect(lines.join("\n")).toMatch(/the database is down/)
  })
})

describe("getSession", () => {
  it("in a page without the middleware, given the configuration: reads, and writes the renewed cookie through Astro.response", async () => {
    const auth = renewing()
    const site: Site = {
      endpoints: { "/auth/*": sesame(auth) },
      pages: { "/plain": async (Astro) => `plain ${(await getSession(Astro, auth))?.user?.name ?? "nobody"}` },
    }
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const page = await call(site, "/plain", { jar })
    expect(await page.text()).toBe("plain Alice")
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
    expect(page.headers.get("cache-control")).toBe("private, no-store")
    expect(await (await call(site, "/plain")).text()).toBe("plain nobody")
  })

  it("after the middleware: its read and configuration, and the renewed cookie written once", async () => {
    const auth = renewing()
    const site: Site = {
      onRequest: sequence(sessionMiddleware(auth)),
      pages: { "/twice": async (Astro) => `${(await getSession(Astro))?.user?.name} ${(await getSession(Astro))?.user?.name} ${localsOf(Astro).session?.user?.name}` },
    }
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const page = await call(site, "/twice", { jar })
    expect(await page.text()).toBe("Alice Alice Alice")
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
  })
})
