/**
 * A storage outage, with database sessions on an adapter that fails as a driver does when its
 * server restarts (`outage` of @sesame/testing): a signed-in visitor is never taken for signed
 * out. `sessionMiddleware` and `authorize` answer the core's 503 (the page for a page, JSON for a
 * script) with `Retry-After` and no cookie; `requireSession` returns it; `getSession` throws the
 * `StorageUnavailable`; a prerendered page goes on; once the storage is back, the same cookie is
 * the same session.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { checkUnavailable, outage } from "@sesame/testing"
import { sequence } from "astro/middleware"
import { describe, expect, it } from "vitest"
import { authorize, getSession, isStorageUnavailable, requireSession, sesame, sessionMiddleware, StorageUnavailable } from "@sesame/astro"
import { aliceCredentials } from "../../core/test/helpers.js"
import { call, config, CookieJar, localsOf, siteFor, signInAlice, users, type Site } from "./helpers.js"

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }

/** The README's site on database sessions in a memory adapter that can go down, with the routes each case needs. */
function outageSite() {
  const storage = outage(MemoryAdapter())
  const auth: AuthConfig = config({
    adapter: storage.adapter,
    session: { strategy: "database" },
    providers: [aliceCredentials({ createUser: true })],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  })
  const base = siteFor(auth)
  const site: Site = {
    ...base,
    endpoints: {
      ...base.endpoints,
      "/api/caught": {
        GET: async (context) => {
          try {
            return Response.json({ user: (await getSession(context))?.user ?? null })
          } catch (error) {
            if (!isStorageUnavailable(error)) throw error
            return Response.json({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter }, { status: 503 })
          }
        },
      },
    },
  }
  return { site, auth, storage }
}

async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("a storage outage", () => {
  it("the flow it protects: signed in, every way of reading the session sees Alice", async () => {
    const { site } = outageSite()
    const jar = new CookieJar()
    await signInAlice(site, jar)
    expect(await (await call(site, "/dashboard", { jar })).text()).toBe("dashboard of Alice")
    expect(await (await call(site, "/account", { jar })).text()).toBe(`account of ${users.alice.email}`)
    expect(await (await call(site, "/api/caught", { jar })).json()).toMatchObject({ user: { email: users.alice.email } })
  })

  it("sessionMiddleware and authorize answer the core's 503 (a page, or JSON), never the redirect or 401, and set no cookie", async () => {
    const { site, storage } = outageSite()
    const jar = new CookieJar()
    await signInAlice(site, jar)
    const cookie = jar.get("sesame.session-token")
    storage.down()
    const body = await expectUnavailable(await call(site, "/dashboard?tab=keys", { jar, headers: page }), "page")
    expect(body).toContain('href="/dashboard?tab=keys"')
    await expectUnavailable(await call(site, "/dashboard", { jar, headers: json }), "json")
    await expectUnavailable(await call(site, "/", { jar, headers: page }), "page")
    expect(jar.get("sesame.session-token")).toBe(cookie)
    expect(storage.refused.size).toBeGreaterThan(0)
    storage.up()
    expect(await (await call(site, "/dashboard", { jar })).text()).toBe("dashboard of Alice")
  })

  it("a visitor without a session cookie is not looked up: signed out as ever, redirected", async () => {
    const { site, storage } = outageSite()
    storage.down()
    expect((await call(site, "/dashboard")).status).toBe(303)
  })

  it("requireSession returns the 503 for the page or endpoint to return; an outage in allow is the 503 too", async () => {
    const { auth, storage } = outageSite()
    const jar = new CookieJar()
    const site: Site = {
      endpoints: { "/auth/*": sesame(auth), ...outageSite().site.endpoints },
      pages: {
        "/account": async (Astro) => {
          const session = await requireSession(Astro, auth)
          return session instanceof Response ? session : `account of ${session.user.email}`
        },
      },
    }
    const signedIn = siteFor(auth)
    await signInAlice(signedIn, jar)
    expect(await (await call(site, "/account", { jar })).text()).toBe(`account of ${users.alice.email}`)
    await expectUnavailable(await call({ ...site, onRequest: sequence(sessionMiddleware(auth)), endpoints: { "/api/admin": outageAdmin(auth) } }, "/api/admin", { jar, headers: json }), "json")
    storage.down()
    await expectUnavailable(await call(site, "/account", { jar, headers: page }), "page")
  })

  it("getSession throws the StorageUnavailable (after the middleware: its 503 first); the route can catch it", async () => {
    const { auth, storage } = outageSite()
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const caught: Site = {
      endpoints: {
        "/api/caught": {
          GET: async (context) => {
            try {
              return Response.json({ user: (await getSession(context, auth))?.user ?? null })
            } catch (error) {
              if (!isStorageUnavailable(error)) throw error
              return Response.json({ caught: error.type, instance: error instanceof StorageUnavailable, retryAfter: error.retryAfter }, { status: 503 })
            }
          },
        },
      },
    }
    storage.down()
    const answer = await call(caught, "/api/caught", { jar })
    expect(answer.status).toBe(503)
    expect(await answer.json()).toMatchObject({ caught: "StorageUnavailable", instance: true, retryAfter: expect.any(Number) })
  })

  it("a prerendered page goes on: it reads no session", async () => {
    const { site, storage } = outageSite()
    const jar = new CookieJar()
    await signInAlice(site, jar)
    storage.down()
    const locals: Record<string, unknown> = {}
    expect(await (await call(site, "/about", { jar }, { locals, clientAddress: null })).text()).toBe("about")
    expect(localsOf({ locals }).session).toBeNull()
  })
})

describe("authorize's allow during an outage", () => {
  it("a StorageUnavailable thrown by allow is the 503, not a 403 or a 500", async () => {
    const { auth } = outageSite()
    const jar = new CookieJar()
    await signInAlice(siteFor(auth), jar)
    const site: Site = {
      onRequest: sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/admin"], allow: () => Promise.reject(new StorageUnavailable("permissions unreachable")) })),
      pages: { "/admin": () => "admin" },
    }
    await expectUnavailable(await call(site, "/admin", { jar, headers: page }), "page")
  })
})

/** An endpoint whose allow check reads a storage that is down. */
function outageAdmin(auth: AuthConfig) {
  return {
    GET: async (context: Parameters<typeof getSession>[0]) => {
      const session = await requireSession(context, auth, { allow: () => Promise.reject(new StorageUnavailable("permissions unreachable")) })
      return session instanceof Response ? session : Response.json({ admin: true })
    },
  }
}
