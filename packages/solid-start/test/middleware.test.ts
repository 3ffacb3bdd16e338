/**
 * authMiddleware: the request-interceptor guard for SolidStart's createMiddleware.
 */
import { describe, expect, it } from "vitest"
import { authMiddleware, SolidAuth } from "@sesame/solid-start"
import { config, CookieJar, event, request, signInAlice } from "./helpers.js"

describe("authMiddleware", () => {
  it("redirects a signed-out request for a protected path to the fixed path", async () => {
    const guard = authMiddleware(config(), { protect: ["/account"], redirectTo: "/signin" })
    for (const path of ["/account", "/account/", "/account/settings?tab=1"]) {
      const response = await guard(event(request(path)))
      expect(response?.status).toBe(302)
      expect(response?.headers.get("location")).toBe("/signin")
    }
  })

  it("lets other paths through without reading the session", async () => {
    let reads = 0
    const options = config({ callbacks: { session: ({ session }) => (reads++, session) } })
    const guard = authMiddleware(options, { protect: ["/account"], redirectTo: "/signin" })
    for (const path of ["/", "/accounts", "/signin", "/api/auth/session", "/public/account"]) {
      expect(await guard(event(request(path)))).toBeUndefined()
    }
    expect(reads).toBe(0)
  })

  it("lets a signed-in request through", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const guard = authMiddleware(options, { protect: ["/account"], redirectTo: "/signin" })
    expect(await guard(event(request("/account/settings", { jar })))).toBeUndefined()
  })

  it("redirects when the session has no user", async () => {
    const options = config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const guard = authMiddleware(options, { protect: ["/account"], redirectTo: "/signin" })
    expect((await guard(event(request("/account", { jar }))))?.status).toBe(302)
  })

  it("honours the prefix when it reads the session", async () => {
    const options = config({ prefix: "/auth" })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar, "/auth")
    const guard = authMiddleware(options, { protect: ["/account"], redirectTo: "/signin" })
    expect(await guard(event(request("/account", { jar })))).toBeUndefined()
  })

  it("fails (a bypass): every spelling Solid Router routes to a protected page is guarded: any case, a trailing slash, percent-encoding", async () => {
    // Solid Router compares fixed segments lowercased and drops a trailing slash (createMatcher):
    // /ACCOUNT and /Account/ render the page /account.
    const guard = authMiddleware(config(), { protect: ["/account"], redirectTo: "/signin" })
    for (const path of ["/Account", "/ACCOUNT/settings", "/%61ccount", "/account//", "/%E0%A4%A"]) {
      expect((await guard(event(request(path))))?.status, path).toBe(302)
    }
    expect(await guard(event(request("/accounts")))).toBeUndefined()
    const exact = authMiddleware(config(), { protect: (path) => path === "/settings", redirectTo: "/signin" })
    for (const path of ["/settings", "/settings/", "/Settings"]) expect((await exact(event(request(path))))?.status, path).toBe(302)
    expect(await exact(event(request("/settings-public")))).toBeUndefined()
    // The auth routes stay open in any case: /API/AUTH is not the prefix, but it is no page either.
    const all = authMiddleware(config(), { protect: ["/"], redirectTo: "/api/auth/signin" })
    expect(await all(event(request("/api/auth/session")))).toBeUndefined()
  })

  it("takes a predicate over the path", async () => {
    const guard = authMiddleware(config(), { protect: (path) => path.endsWith("/private"), redirectTo: "/" })
    expect((await guard(event(request("/a/private"))))?.status).toBe(302)
    expect(await guard(event(request("/a/public")))).toBeUndefined()
  })

  it("refuses options that cannot work: a protected redirect target, bad paths", () => {
    expect(() => authMiddleware(config(), { protect: ["/account"], redirectTo: "/account/signin" })).toThrow(/itself protected/)
    expect(() => authMiddleware(config(), { protect: ["/"], redirectTo: "/signin" })).toThrow(/itself protected/)
    expect(() => authMiddleware(config(), { protect: ["account"], redirectTo: "/signin" })).toThrow(TypeError)
    expect(() => authMiddleware(config(), { protect: ["/account"], redirectTo: "https://evil.example/" })).toThrow(TypeError)
    expect(() => authMiddleware(config({ prefix: "nope" }), { protect: ["/account"], redirectTo: "/signin" })).toThrow(/prefix/)
  })
})
