/**
 * SolidAuth's route handlers: what reaches core, under which prefix, and what is left alone.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, raw } from "@sesame/core"
import { SolidAuth } from "@sesame/solid-start"
import { call, config, CookieJar, event, request, signInAlice } from "./helpers.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("SolidAuth", () => {
  it("serves core's endpoints under /api/auth by default (core's basePath is set from the prefix)", async () => {
    const handlers = SolidAuth(config())
    const session = await call(handlers, "/api/auth/session")
    expect(session.status).toBe(200)
    expect(await session.json()).toBeNull()
    const providers = (await (await call(handlers, "/api/auth/providers")).json()) as Record<string, { callbackUrl: string }>
    expect(providers.credentials?.callbackUrl).toBe("http://localhost:3000/api/auth/callback/credentials")
  })

  it("signs in with a POST and reads the session with a GET", async () => {
    const handlers = SolidAuth(config())
    const jar = new CookieJar()
    const signIn = await signInAlice(handlers, jar)
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe("http://localhost:3000/")
    const session = (await (await call(handlers, "/api/auth/session", { jar })).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Alice")
  })

  it("uses a non-default prefix for routing and for the URLs it hands out", async () => {
    const handlers = SolidAuth(config({ prefix: "/auth/custom/" }))
    const page = await call(handlers, "/auth/custom/signin")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('action="http://localhost:3000/auth/custom/callback/credentials"')
    expect(await handlers.GET(event(request("/api/auth/session")))).toBeUndefined()
  })

  it("returns undefined for paths outside the prefix, for GET and POST", async () => {
    const handlers = SolidAuth(config())
    for (const path of ["/", "/api/authx/session", "/api/session", "/auth/session", "/api/aut"]) {
      expect(await handlers.GET(event(request(path)))).toBeUndefined()
      expect(await handlers.POST(event(request(path, { form: { csrfToken: "x" } })))).toBeUndefined()
    }
  })

  it("passes every action through to core, webauthn-options included", async () => {
    const solid = config()
    const handlers = SolidAuth(solid)
    for (const path of ["/api/auth/webauthn-options/passkey?action=authenticate", "/api/auth/verify-request", "/api/auth/error?error=AccessDenied", "/api/auth/not-an-action"]) {
      const viaSolid = await call(handlers, path)
      const direct = await Auth(request(path), { ...solid, basePath: "/api/auth" })
      expect({ path, status: viaSolid.status, type: viaSolid.headers.get("content-type") }).toEqual({
        path,
        status: direct.status,
        type: direct.headers.get("content-type"),
      })
      if (!viaSolid.headers.get("content-type")?.includes("html")) expect(await viaSolid.text()).toBe(await direct.text())
    }
  })

  it("answers with a Response even when the configuration carries `raw`", async () => {
    const handlers = SolidAuth(config({ raw }))
    const response = await call(handlers, "/api/auth/session")
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(200)
  })

  it("takes the secret, the public URL and provider credentials from the environment, as core does", async () => {
    vi.stubEnv("AUTH_SECRET", "env-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    vi.stubEnv("AUTH_URL", "https://app.example.com")
    vi.stubEnv("AUTH_DEV_IDP_ID", "solid-app")
    vi.stubEnv("AUTH_DEV_IDP_SECRET", "solid-app-secret-0123456789-abcdefghij")
    vi.stubEnv("AUTH_DEV_IDP_ISSUER", "https://idp.example.com")
    const { secret: _unused, ...withoutSecret } = config({
      providers: [config().providers[0]!, { id: "dev-idp", name: "Dev IdP", type: "oidc" }],
    })
    const handlers = SolidAuth(withoutSecret)
    const providers = (await (await call(handlers, "/api/auth/providers")).json()) as Record<string, { signinUrl: string }>
    expect(providers["dev-idp"]?.signinUrl).toBe("https://app.example.com/api/auth/signin/dev-idp")

    const jar = new CookieJar()
    await signInAlice(handlers, jar)
    // The cookie was sealed with AUTH_SECRET: a configuration naming that secret reads it.
    const reader = SolidAuth(config({ secret: "env-secret-0123456789-abcdefghijklmnopqrstuvwxyz" }))
    const session = (await (await call(reader, "/api/auth/session", { jar })).json()) as { user?: { email: string } } | null
    expect(session?.user?.email).toBe("alice@example.com")
  })

  it("refuses a bad prefix, and a basePath that disagrees with it, when the route is made", () => {
    expect(() => SolidAuth(config({ prefix: "api/auth" }))).toThrow(TypeError)
    expect(() => SolidAuth(config({ prefix: "/api//auth" }))).toThrow(/prefix/)
    expect(() => SolidAuth(config({ prefix: "/" }))).toThrow(/prefix/)
    expect(() => SolidAuth(config({ basePath: "/auth" }))).toThrow(/basePath/)
    expect(() => SolidAuth(config({ prefix: "/api/auth", basePath: "/api/auth/" }))).not.toThrow()
  })
})
