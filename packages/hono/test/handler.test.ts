/**
 * `sesame(config)`: every endpoint of the core through a real Hono app, the base path rule, the
 * lazy configuration (Workers' `c.env`), and a body a middleware read first.
 */
import { raw, type AuthConfig } from "@sesame/core"
import { Hono, type Context } from "hono"
import { describe, expect, it, vi } from "vitest"
import { sesame, sessionMiddleware } from "@sesame/hono"
import { appFor, call, config, CookieJar, users, type FetchApp } from "./helpers.js"

async function csrf(app: FetchApp, jar: CookieJar, basePath = "/auth"): Promise<string> {
  return ((await (await call(app, `${basePath}/csrf`, { jar })).json()) as { csrfToken: string }).csrfToken
}

describe("sesame(config): the auth routes", () => {
  it("serves the core's endpoints under /auth: providers, csrf, the built-in pages, sign-in, session, sign-out", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    expect(Object.keys((await (await call(app, "/auth/providers")).json()) as object)).toEqual(["credentials"])
    const page = await call(app, "/auth/signin")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('action="http://localhost:3000/auth/callback/credentials"')
    const signedIn = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(app, jar), username: "alice", password: users.alice.password } })
    expect(signedIn.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeDefined()
    const session = (await (await call(app, "/auth/session", { jar })).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Alice")
    const signedOut = await call(app, "/auth/signout", { jar, form: { csrfToken: await csrf(app, jar) } })
    expect(signedOut.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(app, "/auth/session", { jar })).json()).toBeNull()
  })

  it("answers HEAD as the core does, and a post without the CSRF token with the core's refusal", async () => {
    const app = appFor(config())
    const head = await call(app, "/auth/providers", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
    const forged = await call(app, "/auth/callback/credentials", { form: { username: "alice", password: users.alice.password } })
    expect(forged.status).toBe(302)
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    expect(cookieless(forged)).toBe(true)
  })

  it("follows basePath (and a handler mounted elsewhere gets the core's 400 naming the path, not a silent 404)", async () => {
    const auth = config({ basePath: "/api/auth/" })
    const app = new Hono()
    app.on(["GET", "POST"], "/api/auth/*", sesame(auth))
    app.on(["GET", "POST"], "/auth/*", sesame(auth))
    const providers = (await (await call(app, "/api/auth/providers")).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials?.signinUrl).toBe("http://localhost:3000/api/auth/signin/credentials")
    const misplaced = await call(app, "/auth/providers")
    expect(misplaced.status).toBe(400)
    expect(await misplaced.text()).toContain("/auth/providers")
  })

  it("takes the base path from the path of AUTH_URL when basePath is not set", async () => {
    vi.stubEnv("AUTH_URL", "http://localhost:3000/identity")
    try {
      const app = new Hono()
      app.on(["GET", "POST"], "/identity/*", sesame(config()))
      expect((await call(app, "/identity/csrf")).status).toBe(200)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("reads a lazy configuration from the context's bindings, once per request however many parts ask", async () => {
    const made = vi.fn((c: Context<{ Bindings: { AUTH_SECRET: string } }>): AuthConfig => config({ secret: c.env.AUTH_SECRET }))
    const app = new Hono<{ Bindings: { AUTH_SECRET: string } }>()
    app.use("*", sessionMiddleware(made))
    app.on(["GET", "POST"], "/auth/*", sesame(made))
    const env = { AUTH_SECRET: "a-bound-secret-0123456789-abcdefghijklmnop" }
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar }, env)).json()) as { csrfToken: string }
    expect(made).toHaveBeenCalledTimes(1)
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: users.alice.password } }, env)
    expect(((await (await call(app, "/auth/session", { jar }, env)).json()) as { user: { name: string } }).user.name).toBe("Alice")
    expect(made).toHaveBeenCalledTimes(3)
    // Another secret in the bindings: the session sealed under the first is not one.
    expect(await (await call(app, "/auth/session", { jar }, { AUTH_SECRET: "another-bound-secret-0123456789-abcdefghij" })).json()).toBeNull()
  })

  it("reads a body that a middleware before it read through Hono", async () => {
    const app = new Hono()
    const seen: unknown[] = []
    app.use("*", async (c, next) => {
      if (c.req.method === "POST") seen.push(await c.req.parseBody())
      await next()
    })
    app.on(["GET", "POST"], "/auth/*", sesame(config()))
    const jar = new CookieJar()
    const signedIn = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(app, jar), username: "alice", password: users.alice.password } })
    expect(seen).toHaveLength(1)
    expect(signedIn.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeDefined()
  })

  it("answers with a Response even when the configuration carries the core's `raw`", async () => {
    const app = new Hono()
    app.on(["GET", "POST"], "/auth/*", sesame(config({ raw })))
    const answer = await call(app, "/auth/csrf")
    expect(answer).toBeInstanceOf(Response)
    expect(answer.status).toBe(200)
  })

  it("refuses a configuration that is not an object when the app is made, naming the function", () => {
    expect(() => sesame(undefined as unknown as AuthConfig)).toThrow(/^sesame: expected a configuration object/)
    expect(() => sessionMiddleware(null as unknown as AuthConfig)).toThrow(/^sessionMiddleware: expected a configuration object/)
  })
})

function cookieless(response: Response): boolean {
  return !response.headers.getSetCookie().some((line) => line.startsWith("sesame.session-token=") && !/max-age=0/i.test(line))
}
