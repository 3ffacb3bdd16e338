/**
 * The guards' default: the sign-in page with the return address, followed the way the browser
 * does (the guard's redirect, the built-in sign-in page, its form posted) until the visitor is
 * back on the page they asked for.
 *
 * Threat: the return address is a redirect target after sign-in. If the guard copied an absolute
 * URL, a protocol-relative path (`//evil.example`), a foreign `Referer` or a forged `Host` into it,
 * a link to the app would end, after a genuine sign-in, on a page the attacker chose (phishing),
 * or the guard's own redirect would point at the attacker's host.
 */
import { describe, expect, it, vi } from "vitest"
import { authMiddleware, requireSession, SolidAuth, type SolidAuthConfig } from "@sesame/solid-start"
import { alice, call, config, CookieJar, event, origin, request } from "./helpers.js"

/** What the browser does on the page at `location`: reads the sign-in form and posts it as alice. */
async function signInOnPage(options: SolidAuthConfig, location: string, jar: CookieJar): Promise<string> {
  const handlers = SolidAuth(options)
  const target = new URL(location, origin)
  expect(target.origin).toBe(origin)
  const page = await call(handlers, `${target.pathname}${target.search}`, { jar })
  expect(page.status).toBe(200)
  const html = await page.text()
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&")
  const form = { csrfToken: field("csrfToken")!, callbackUrl: field("callbackUrl")!, username: "alice", password: alice.password }
  const signedIn = await call(handlers, "/api/auth/callback/credentials", { jar, form })
  expect(signedIn.status).toBe(302)
  return signedIn.headers.get("location")!
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  const result = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(result).toBeInstanceOf(Response)
  return result as Response
}

describe("the guards' default target: the built-in sign-in page with the return address", () => {
  it("middleware: a signed-out visit goes to <prefix>/signin with callbackUrl, and signing in there leads back", async () => {
    const options = config()
    const guard = authMiddleware(options, { protect: ["/account"] })
    const redirect = await guard(event(request("/account/settings?tab=keys&x=1")))
    expect(redirect?.status).toBe(302)
    expect(redirect?.headers.get("cache-control")).toBe("private, no-store")
    const location = redirect!.headers.get("location")!
    expect(location).toBe(`${origin}/api/auth/signin?callbackUrl=${encodeURIComponent("/account/settings?tab=keys&x=1")}`)

    const jar = new CookieJar()
    expect(await signInOnPage(options, location, jar)).toBe(`${origin}/account/settings?tab=keys&x=1`)
    expect(await guard(event(request("/account/settings?tab=keys&x=1", { jar })))).toBeUndefined()
  })

  it("requireSession: the same for the page being rendered", async () => {
    const options = config()
    const redirect = await thrown(requireSession(request("/orders/42"), options))
    expect(redirect.status).toBe(302)
    const location = redirect.headers.get("location")!
    expect(location).toBe(`${origin}/api/auth/signin?callbackUrl=%2Forders%2F42`)

    const jar = new CookieJar()
    expect(await signInOnPage(options, location, jar)).toBe(`${origin}/orders/42`)
    expect((await requireSession(request("/orders/42", { jar }), options)).user.name).toBe(alice.name)
  })

  it("honours the prefix: the built-in page under it, and the auth routes are never guarded", async () => {
    const options = config({ prefix: "/auth" })
    const guard = authMiddleware(options, { protect: ["/"] })
    const location = (await guard(event(request("/reports"))))!.headers.get("location")!
    expect(location).toBe(`${origin}/auth/signin?callbackUrl=%2Freports`)
    for (const path of ["/auth/signin", "/auth/session", "/auth/callback/credentials"]) {
      expect(await guard(event(request(path)))).toBeUndefined()
    }
    const jar = new CookieJar()
    const handlers = SolidAuth(options)
    const page = await call(handlers, "/auth/signin?callbackUrl=%2Freports", { jar })
    const csrfToken = /name="csrfToken" value="([^"]*)"/.exec(await page.text())![1]!
    const signedIn = await call(handlers, "/auth/callback/credentials", { jar, form: { csrfToken, callbackUrl: "/reports", username: "alice", password: alice.password } })
    expect(signedIn.headers.get("location")).toBe(`${origin}/reports`)
    expect(await guard(event(request("/reports", { jar })))).toBeUndefined()
  })

  it("goes to pages.signIn when the configuration sets one, as a path so the app's router can show it", async () => {
    const options = config({ pages: { signIn: "/login" } })
    const location = (await authMiddleware(options, { protect: ["/account"] })(event(request("/account?x=1"))))!.headers.get("location")
    expect(location).toBe(`/login?callbackUrl=${encodeURIComponent("/account?x=1")}`)
    expect((await thrown(requireSession(request("/account"), options))).headers.get("location")).toBe("/login?callbackUrl=%2Faccount")
    // That page is a page of the app: it cannot be protected by the same middleware.
    expect(() => authMiddleware(options, { protect: ["/"] })).toThrow(/itself protected/)
    expect(() => authMiddleware(config({ pages: { signIn: "https://login.example/" } }), { protect: ["/account"] })).toThrow(/pages\.signIn/)
  })

  it("an explicit target is used as given; the sign-in page named explicitly still gets the return address", async () => {
    const plain = await authMiddleware(config(), { protect: ["/account"], redirectTo: "/signin" })(event(request("/account")))
    expect(plain?.headers.get("location")).toBe("/signin")
    const withQuery = await thrown(requireSession(request("/account"), config(), "/welcome?reason=signed-out"))
    expect(withQuery.headers.get("location")).toBe("/welcome?reason=signed-out")

    const builtIn = await thrown(requireSession(request("/account"), config(), "/api/auth/signin"))
    expect(builtIn.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    const custom = await authMiddleware(config({ pages: { signIn: "/login" } }), { protect: ["/account"], redirectTo: "/login?theme=dark" })(event(request("/account")))
    expect(custom?.headers.get("location")).toBe("/login?theme=dark&callbackUrl=%2Faccount")
    // One that already says where to go back to keeps it.
    const fixed = await thrown(requireSession(request("/account"), config(), "/api/auth/signin?callbackUrl=%2Fhome"))
    expect(fixed.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fhome`)
  })

  it("a server function called from the browser returns to the page the browser is on (its same-origin Referer)", async () => {
    const options = config()
    const call = (referer?: string) =>
      new Request(`${origin}/_server?id=account`, {
        method: "POST",
        headers: { "x-server-id": "account", "x-server-instance": "server-fn:0", ...(referer ? { referer } : {}) },
        body: "[]",
      })
    const fromPage = await thrown(requireSession(call(`${origin}/account?tab=2`), options))
    expect(fromPage.headers.get("location")).toBe(`${origin}/api/auth/signin?callbackUrl=${encodeURIComponent("/account?tab=2")}`)
    // No Referer (a no-referrer policy): the sign-in page without a return address, never /_server.
    const anonymous = await thrown(requireSession(call(), options))
    expect(anonymous.headers.get("location")).toBe(`${origin}/api/auth/signin`)
  })
})

describe("attacks on the return address", () => {
  it("a requested path //evil.example returns to /evil.example on this site, also after signing in", async () => {
    const options = config()
    const guard = authMiddleware(options, { protect: () => true })
    for (const path of ["//evil.example", "///evil.example/x", "/\\evil.example"]) {
      const location = (await guard(event(new Request(`${origin}${path}`))))!.headers.get("location")!
      const callbackUrl = new URL(location).searchParams.get("callbackUrl")!
      expect(callbackUrl.startsWith("/")).toBe(true)
      expect(callbackUrl.startsWith("//")).toBe(false)
      expect(new URL(callbackUrl, origin).origin).toBe(origin)

      const landed = new URL(await signInOnPage(options, location, new CookieJar()))
      expect(landed.origin).toBe(origin)
    }
  })

  it("a callbackUrl in the requested page's query stays inside the return address", async () => {
    const options = config()
    const location = (await thrown(requireSession(request("/account?callbackUrl=https://evil.example/"), options))).headers.get("location")!
    const target = new URL(location)
    expect(target.searchParams.getAll("callbackUrl")).toEqual(["/account?callbackUrl=https://evil.example/"])
    const landed = new URL(await signInOnPage(options, location, new CookieJar()))
    expect(`${landed.origin}${landed.pathname}`).toBe(`${origin}/account`)
  })

  it("a foreign Referer on a server function call is not a return address", async () => {
    const options = config()
    for (const referer of ["https://evil.example/account", "http://localhost:3001/account", "not a url"]) {
      const request = new Request(`${origin}/_server`, { method: "POST", headers: { "x-server-id": "f", referer }, body: "[]" })
      const location = (await thrown(requireSession(request, options))).headers.get("location")
      expect(location).toBe(`${origin}/api/auth/signin`)
    }
  })

  it("a forged Host is never written into the redirect: the origin is AUTH_URL's, or none", async () => {
    const forged = (path: string) => new Request(`http://evil.example${path}`, { headers: { host: "evil.example", "x-forwarded-host": "evil.example" } })
    const silent = { error: () => {}, warn: () => {}, debug: () => {} }
    // With the public URL configured, the redirect is on it. (A new object: the core resolves the
    // environment once per configuration object.)
    vi.stubEnv("AUTH_URL", "https://app.example.com")
    try {
      const pinned = config({ trustHost: false, logger: silent })
      const location = (await authMiddleware(pinned, { protect: ["/account"] })(event(forged("/account"))))!.headers.get("location")
      expect(location).toBe("https://app.example.com/api/auth/signin?callbackUrl=%2Faccount")
    } finally {
      vi.unstubAllEnvs()
    }
    // Without it, the core refuses the host, and the redirect is a path: the browser stays on the
    // host it asked for, and nothing the request said about hosts is written.
    const refused = config({ trustHost: false, logger: silent })
    const location = (await authMiddleware(refused, { protect: ["/account"] })(event(forged("/account"))))!.headers.get("location")!
    expect(location).toBe("/api/auth/signin?callbackUrl=%2Faccount")
  })
})
