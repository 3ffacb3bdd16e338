/**
 * The guards: `authorize(config, { protect })` in the middleware and `requireSession(context)` in a
 * page or endpoint: the redirect with the way back, the 401 JSON, `allow`'s 403, `redirectTo`,
 * percent-encoded and undecodable paths, the base path never guarded, a protected prerendered page,
 * and bad options. Each refusal beside the signed-in flow it guards.
 */
import type { AuthConfig } from "@sesame/core"
import { sequence } from "astro/middleware"
import { describe, expect, it, vi } from "vitest"
import { authorize, requireSession, sesame, sessionMiddleware } from "@sesame/astro"
import { call, config, CookieJar, cookieNames, localsOf, origin, siteFor, signInAlice, type Site } from "./helpers.js"

const json = { accept: "application/json" }
const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }

/** A site whose /admin is for alice@example.com only, in both guard forms. */
function adminSite(auth: AuthConfig, allow: (email: string) => boolean | Promise<boolean>): Site {
  return {
    onRequest: sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/admin"], allow: (session) => allow(session.user.email ?? "") })),
    endpoints: {
      "/auth/*": sesame(auth),
      ...siteFor(auth).endpoints,
      "/api/admin": {
        GET: async (context) => {
          const session = await requireSession(context, { allow: (session) => allow(session.user.email ?? "") })
          return session instanceof Response ? session : Response.json({ admin: session.user.email })
        },
      },
    },
    pages: { "/admin": (Astro) => `admin ${localsOf(Astro).session?.user?.email}` },
  }
}

describe("authorize(config, { protect })", () => {
  it("lets a signed-in visitor in, with locals.session set; a signed-out one gets 303 to the sign-in page with the way back", async () => {
    const site = siteFor(config())
    const refused = await call(site, "/dashboard/keys?tab=new", { headers: page })
    expect(refused.status).toBe(303)
    expect(refused.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/dashboard/keys?tab=new")}`)
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    const jar = new CookieJar()
    await signInAlice(site, jar)
    expect(await (await call(site, "/dashboard/keys?tab=new", { jar })).text()).toBe("keys of Alice")
  })

  it("answers a JSON client 401 { error, message } instead of a redirect", async () => {
    const refused = await call(siteFor(config()), "/dashboard", { headers: json })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    expect((await call(siteFor(config()), "/dashboard", { headers: { "x-requested-with": "XMLHttpRequest" } })).status).toBe(401)
  })

  it.each(["/%64ashboard", "/dashboard/%6Beys", "/Dashboard/../dashboard", "/auth/../dashboard", "/auth/%2e%2e/dashboard", "/dashboard/"])(
    "guards %s, the protected page percent-encoded or by another spelling",
    async (path) => {
      const site = siteFor(config())
      for (const method of ["GET", "HEAD"]) {
        const answer = await call(site, path, { method })
        expect(answer.status).toBe(303)
        expect(await answer.text()).not.toContain("of ")
      }
    },
  )

  it("treats a path that does not decode as protected, and leaves other pages alone", async () => {
    const site: Site = { ...siteFor(config()), onRequest: authorize(config(), { protect: ["/dashboard"] }) }
    expect((await call(site, "/%E0%A4%A")).status).toBe(303)
    expect((await call(site, "/")).status).toBe(200)
  })

  it("never guards the auth endpoint, even with protect: ['/'], so that a visitor can sign in", async () => {
    const auth = config()
    const site: Site = { ...siteFor(auth), onRequest: sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/"] })) }
    expect((await call(site, "/auth/signin")).status).toBe(200)
    expect((await call(site, "/auth/csrf")).status).toBe(200)
    expect((await call(site, "/")).status).toBe(303)
  })

  it("sends a signed-out visitor to redirectTo when given, a path of the app's", async () => {
    const auth = config()
    const site: Site = { ...siteFor(auth), onRequest: sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"], redirectTo: "/signin" })) }
    const refused = await call(site, "/dashboard")
    expect(refused.status).toBe(303)
    expect(refused.headers.get("location")).toBe("/signin")
  })

  it("with allow: 403 to the user it refuses (plain text to a page, JSON to a script), through for the one it allows; allow is not asked without a user", async () => {
    const allow = vi.fn((email: string) => email === "alice@example.com")
    const jar = new CookieJar()
    const site = adminSite(config(), allow)
    expect((await call(site, "/admin")).status).toBe(303)
    expect(allow).not.toHaveBeenCalled()
    await signInAlice(site, jar)
    expect(await (await call(site, "/admin", { jar })).text()).toBe("admin alice@example.com")
    allow.mockImplementation(() => false)
    const refused = await call(site, "/admin", { jar, headers: page })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toBe("Access denied.")
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    const refusedJson = await call(site, "/admin", { jar, headers: json })
    expect(await refusedJson.json()).toEqual({ error: "Forbidden", message: "Access denied." })
  })

  it("fails the build of a protected prerendered page rather than publish it; an unprotected prerendered page builds", async () => {
    const auth = config()
    const site: Site = { ...siteFor(auth), prerendered: ["/dashboard", "/about"] }
    await expect(call(site, "/dashboard", {}, { clientAddress: null })).rejects.toThrow(/is protected but prerendered/)
    expect((await call(site, "/about", {}, { clientAddress: null })).status).toBe(200)
  })

  it("checks its options when it is made", () => {
    const auth = config()
    expect(() => authorize(auth, { protect: ["dashboard"] })).toThrow(/^authorize: each protected path/)
    expect(() => authorize(auth, { protect: "/dashboard" as never })).toThrow(/^authorize: `protect` must be/)
    expect(() => authorize(auth, { protect: ["/"], redirectTo: "/signin" })).toThrow(/is itself protected/)
    // The endpoint under the base path is never guarded: its built-in sign-in page is a fine target.
    expect(() => authorize(auth, { protect: ["/"], redirectTo: "/auth/signin" })).not.toThrow()
    expect(() => authorize(auth, { protect: ["/x"], redirectTo: "//evil.example" })).toThrow(/`redirectTo` must be a path on this site/)
    expect(() => authorize(auth, { protect: ["/x"], allow: "yes" as never })).toThrow(/`allow` must be a function/)
    expect(() => authorize(auth, undefined as never)).toThrow(/^authorize: expected options/)
  })
})

describe("requireSession(context)", () => {
  it("in a page: the session, or the 303 to the sign-in page the page returns", async () => {
    const site = siteFor(config())
    const refused = await call(site, "/account?tab=1")
    expect(refused.status).toBe(303)
    expect(refused.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/account?tab=1")}`)
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    const jar = new CookieJar()
    await signInAlice(site, jar)
    expect(await (await call(site, "/account", { jar })).text()).toBe("account of alice@example.com")
  })

  it("in an endpoint: 401 JSON to a JSON client, the session's user once signed in", async () => {
    const site = siteFor(config())
    const refused = await call(site, "/api/me", { headers: json })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    const jar = new CookieJar()
    await signInAlice(site, jar)
    expect(await (await call(site, "/api/me", { jar, headers: json })).json()).toEqual({ email: "alice@example.com" })
  })

  it("with allow in an endpoint: 403 JSON when it refuses; with a configuration and options, without the middleware", async () => {
    const jar = new CookieJar()
    const site = adminSite(config(), (email) => email === "bob@example.com")
    await signInAlice(site, jar)
    const refused = await call(site, "/api/admin", { jar, headers: json })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
    const auth = config()
    const bare: Site = {
      pages: {
        "/plain": async (Astro) => {
          const session = await requireSession(Astro, auth, { redirectTo: "/signin", allow: (session) => session.user.name === "Alice" })
          return session instanceof Response ? session : `plain ${session.user.name}`
        },
      },
    }
    expect((await call(bare, "/plain")).headers.get("location")).toBe("/signin")
    const other = new CookieJar()
    await signInAlice(siteFor(auth), other)
    expect(await (await call(bare, "/plain", { jar: other })).text()).toBe("plain Alice")
  })

  it("puts the read's clearing of a bad cookie on its refusal", async () => {
    const refused = await call(siteFor(config()), "/api/me", { headers: { ...json, cookie: "sesame.session-token=planted" } })
    expect(refused.status).toBe(401)
    expect(cookieNames(refused)).toEqual(["sesame.session-token"])
    expect(refused.headers.getSetCookie()[0]).toMatch(/Max-Age=0/i)
  })
})
