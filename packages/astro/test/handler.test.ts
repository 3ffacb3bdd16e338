/**
 * `sesame(config)`: the catch-all endpoint's `{ GET, POST }` through the app's middleware, the base
 * path rule, `raw`, the socket's address, and a configuration that is not an object.
 */
import { raw, type AuthConfig } from "@sesame/core"
import type { APIContext, APIRoute, AstroGlobal, MiddlewareHandler } from "astro"
import { sequence } from "astro/middleware"
import { describe, expect, it, vi } from "vitest"
import { api, authorize, getSession, requireSession, sesame, sessionMiddleware, signIn } from "@sesame/astro"
import { call, config, contextFor, CookieJar, origin, siteFor, users, type Site } from "./helpers.js"
import { request } from "../../core/test/helpers.js"

async function csrf(site: Site, jar: CookieJar, basePath = "/auth"): Promise<string> {
  return ((await (await call(site, `${basePath}/csrf`, { jar })).json()) as { csrfToken: string }).csrfToken
}

describe("sesame(config): the auth endpoint", () => {
  it("serves the core's endpoints under /auth: providers, csrf, the built-in page, sign-in, session, sign-out", async () => {
    const site = siteFor(config())
    const jar = new CookieJar()
    expect(Object.keys((await (await call(site, "/auth/providers")).json()) as object)).toEqual(["credentials"])
    const page = await call(site, "/auth/signin")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`action="${origin}/auth/callback/credentials"`)
    const signedIn = await call(site, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(site, jar), username: "alice", password: users.alice.password } })
    expect(signedIn.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeDefined()
    expect(((await (await call(site, "/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe("Alice")
    const signedOut = await call(site, "/auth/signout", { jar, form: { csrfToken: await csrf(site, jar) } })
    expect(signedOut.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(site, "/auth/session", { jar })).json()).toBeNull()
  })

  it("answers HEAD through GET, and a post without the CSRF token with the core's refusal and no session", async () => {
    const site = siteFor(config())
    const head = await call(site, "/auth/providers", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
    const forged = await call(site, "/auth/callback/credentials", { form: { username: "alice", password: users.alice.password } })
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    expect(forged.headers.getSetCookie().some((line) => line.startsWith("sesame.session-token="))).toBe(false)
  })

  it("follows basePath, and an endpoint in another folder gets the core's 400 naming the path", async () => {
    const auth = config({ basePath: "/api/auth" })
    const site: Site = { onRequest: sessionMiddleware(auth), endpoints: { "/api/auth/*": sesame(auth), "/auth/*": sesame(auth) } }
    const providers = (await (await call(site, "/api/auth/providers")).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials?.signinUrl).toBe(`${origin}/api/auth/signin/credentials`)
    const misplaced = await call(site, "/auth/providers")
    expect(misplaced.status).toBe(400)
    expect(await misplaced.text()).toContain("/auth/providers")
  })

  it("takes the base path from the path of AUTH_URL when basePath is not set", async () => {
    vi.stubEnv("AUTH_URL", `${origin}/identity`)
    try {
      const auth = config()
      expect((await call({ endpoints: { "/identity/*": sesame(auth) } }, "/identity/csrf")).status).toBe(200)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("answers with a Response even when the configuration carries the core's `raw`", async () => {
    const answer = await call({ endpoints: { "/auth/*": sesame(config({ raw })) } }, "/auth/csrf")
    expect(answer).toBeInstanceOf(Response)
    expect(answer.status).toBe(200)
  })

  it("hands the request to the core as it is, with the socket's address; an unknown address (it throws) is no failure", async () => {
    const { GET } = sesame(config())
    const given = request("/auth/csrf")
    const read = vi.fn(() => "198.51.100.4")
    const context = contextFor(given, {})
    Object.defineProperty(context, "clientAddress", { get: read })
    expect((await GET(context)).status).toBe(200)
    expect(read).toHaveBeenCalled()
    expect((await GET(contextFor(request("/auth/csrf"), {}, false, null))).status).toBe(200)
  })

  it("refuses a configuration that is not an object when it is made, naming the function", () => {
    expect(() => sesame(undefined as unknown as AuthConfig)).toThrow(/^sesame: expected a configuration object/)
    expect(() => sessionMiddleware(null as unknown as AuthConfig)).toThrow(/^sessionMiddleware: expected a configuration object/)
    expect(() => authorize("secret" as unknown as AuthConfig, { protect: ["/"] })).toThrow(/^authorize: expected a configuration object/)
    const context = contextFor(request("/"), {})
    expect(() => api(context, 42 as unknown as AuthConfig)).toThrow(/^api: expected a configuration object/)
    return Promise.all([
      expect(getSession(context, null as unknown as AuthConfig)).rejects.toThrow(/^getSession: expected a configuration object/),
      expect(requireSession(context, undefined, { redirectTo: "https://evil.example/" })).rejects.toThrow(/^requireSession: `redirectTo` must be a path/),
    ])
  })

  it("without the middleware or a configuration, the request's functions say what to add", async () => {
    const context = contextFor(request("/"), {})
    await expect(getSession(context)).rejects.toThrow(/getSession\(context, …\) needs Sesame's configuration: add sessionMiddleware/)
    await expect(signIn(context, "credentials")).rejects.toThrow(/^signIn\(context, …\) needs/)
    expect(() => api(context)).toThrow(/^api\(context, …\) needs/)
  })
})

describe("the context types", () => {
  // Checked by the type-check of the tests (npx tsc -p tsconfig.json): Astro's own types are taken
  // as they are, `Astro` in a page as well as the `APIContext`, and the middleware by `sequence`.
  it("takes Astro's AstroGlobal and APIContext, and its middleware types", () => {
    const typed = (Astro: AstroGlobal, context: APIContext, auth: AuthConfig) => {
      const middleware: MiddlewareHandler = sequence(sessionMiddleware(auth), authorize(auth, { protect: ["/x"] }))
      const endpoint: APIRoute = sesame(auth).GET
      return [middleware, endpoint, requireSession(Astro), getSession(context), signIn(Astro, "credentials"), api(Astro, auth)]
    }
    expect(typeof typed).toBe("function")
  })
})
