import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import { providerEnvName } from "../src/config/env.js"
import { aliceCredentials, CookieJar, jwtConfig, origin, request, secret, send, signInAlice } from "./helpers.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

function capture() {
  const errors: Error[] = []
  const warnings: string[] = []
  return { errors, warnings, logger: { error: (e: Error) => errors.push(e), warn: (c: string) => warnings.push(c) } }
}

async function expectConfigurationError(config: AuthConfig, pattern: RegExp) {
  const log = capture()
  config.logger = log.logger as AuthConfig["logger"]
  const json = await Auth(request("/auth/session"), config)
  expect(json.status).toBe(500)
  const body = await json.text()
  expect(JSON.parse(body)).toEqual({ message: "There is a problem with the server configuration. Check the server logs for more information." })
  expect(body).not.toMatch(/at \w+ \(|\.ts:\d+/)
  const page = await Auth(request("/auth/signin"), config)
  expect(page.status).toBe(500)
  const html = await page.text()
  expect(html).toContain("Server error")
  expect(html).not.toMatch(/at \w+ \(|\.ts:\d+|Error:/)
  expect(log.errors.length).toBeGreaterThan(0)
  expect(log.errors[0]!.message).toMatch(pattern)
}

describe("validation", () => {
  it("production without a secret: MissingSecret, with the fix in the message", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("SESAME_SECRET", "")
    await expectConfigurationError({ trustHost: true, providers: [aliceCredentials()] }, /AUTH_SECRET.*openssl rand/)
  })

  it("development without a secret: works, with one warning", async () => {
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("SESAME_SECRET", "")
    const log = capture()
    const config: AuthConfig = { trustHost: true, providers: [aliceCredentials()], logger: log.logger as AuthConfig["logger"] }
    const jar = new CookieJar()
    expect((await signInAlice(config, jar)).status).toBe(302)
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
    await send(config, "/auth/session", { jar })
    expect(log.warnings).toEqual(["missing-secret-development"])
  })

  it("an untrusted host without AUTH_URL is refused", async () => {
    vi.stubEnv("AUTH_URL", "")
    vi.stubEnv("SESAME_URL", "")
    await expectConfigurationError({ secret, trustHost: false, providers: [aliceCredentials()] }, /AUTH_URL.*trustHost/)
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_TRUST_HOST", "false")
    await expectConfigurationError({ secret, providers: [aliceCredentials()] }, /not trusted/)
  })

  it("names the problem for each bad option", async () => {
    const cases: [Partial<AuthConfig>, RegExp][] = [
      [{ providers: [{ ...aliceCredentials(), authorize: undefined as never }] }, /needs an `authorize/],
      [{ providers: [aliceCredentials(), aliceCredentials()] }, /Two providers have the id "credentials"/],
      [{ providers: [{ ...aliceCredentials(), id: "bad id" }] }, /needs an `id`/],
      [{ providers: [{ ...aliceCredentials(), type: "magic" as never }] }, /unknown type "magic"/],
      [{ providers: "nope" as never }, /must be an array/],
      [{ basePath: "auth" }, /basePath/],
      [{ basePath: "/a?b" }, /basePath/],
      [{ session: { strategy: "database" } }, /needs an `adapter`/],
      [{ session: { maxAge: -1 } }, /session.maxAge/],
      [{ session: { updateAge: Number.NaN } }, /session.updateAge/],
      [{ secret: [] }, /secret/],
      [{ secret: ["", "x"] }, /secret/],
      [{ pages: { signIn: "javascript:alert(1)" } }, /pages.signIn/],
      [{ pages: { error: "//evil.example" } }, /pages.error/],
      [{ callbacks: { jwt: "nope" as never } }, /callbacks.jwt/],
      [{ redirectProxyUrl: "not a url" }, /redirectProxyUrl/],
    ]
    for (const [overrides, pattern] of cases) {
      await expectConfigurationError({ ...jwtConfig(), ...overrides }, pattern)
    }
  })

  it("never redirects to an invalid pages.error while reporting a configuration error", async () => {
    const config = jwtConfig({ pages: { error: "//evil.example" } })
    config.logger = capture().logger as AuthConfig["logger"]
    const res = await Auth(request("/auth/signin"), config)
    expect(res.status).toBe(500)
    expect(res.headers.get("location")).toBeNull()
    const valid = jwtConfig({ pages: { error: "/oops" }, session: { maxAge: -1 } })
    valid.logger = capture().logger as AuthConfig["logger"]
    const redirected = await Auth(request("/auth/signin"), valid)
    // Without AUTH_URL a broken configuration cannot say which host is the app's: the redirect is
    // relative, so the browser stays on the host it asked for and no forged Host is written back.
    expect(redirected.headers.get("location")).toBe("/oops?error=Configuration")
  })

  it("checks cookie prefix rules for the cookies option", async () => {
    const config = jwtConfig({ cookies: { sessionToken: { name: "__Host-session", options: { domain: "example.com" } } } })
    const log = capture()
    config.logger = log.logger as AuthConfig["logger"]
    const res = await Auth(request("https://app.example.com/auth/session"), config)
    expect(res.status).toBe(500)
    expect(log.errors[0]!.message).toMatch(/cookies.sessionToken.*domain/)
  })

  it("never throws out of Auth(), even for a lazy config that throws", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {})
    const res = await Auth(request("/auth/session"), () => {
      throw new Error("env missing")
    })
    expect(res.status).toBe(500)
    expect(await res.text()).not.toContain("env missing")
    spy.mockRestore()
  })
})

describe("environment", () => {
  it("reads AUTH_SECRET, and SESAME_SECRET wins over it", async () => {
    vi.stubEnv("AUTH_SECRET", "from-auth-secret-0123456789abcdef")
    vi.stubEnv("SESAME_SECRET", "")
    const a: AuthConfig = { trustHost: true, providers: [aliceCredentials()] }
    const jar = new CookieJar()
    await signInAlice(a, jar)
    const withAuthSecret = jwtConfig({ secret: "from-auth-secret-0123456789abcdef" })
    expect((await (await send(withAuthSecret, "/auth/session", { jar })).json()).user.name).toBe("Alice")

    vi.stubEnv("SESAME_SECRET", "from-sesame-secret-0123456789abcdef")
    const b: AuthConfig = { trustHost: true, providers: [aliceCredentials()] }
    const jar2 = new CookieJar()
    await signInAlice(b, jar2)
    const withSesame = jwtConfig({ secret: "from-sesame-secret-0123456789abcdef" })
    expect((await (await send(withSesame, "/auth/session", { jar: jar2 })).json()).user.name).toBe("Alice")
    expect(await (await send(withAuthSecret, "/auth/session", { jar: jar2 })).json()).toBeNull()
  })

  it("accepts tokens made under AUTH_SECRET_1 after rotation", async () => {
    const jar = new CookieJar()
    await signInAlice(jwtConfig({ secret: "previous-secret-0123456789abcdef" }), jar)
    vi.stubEnv("AUTH_SECRET", "current-secret-0123456789abcdefgh")
    vi.stubEnv("AUTH_SECRET_1", "previous-secret-0123456789abcdef")
    const config: AuthConfig = { trustHost: true, providers: [aliceCredentials()] }
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
  })

  it("takes the origin and base path from AUTH_URL, ignoring the request host", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example.com/api/auth")
    const config: AuthConfig = { secret, providers: [aliceCredentials()] }
    const res = await Auth(new Request("http://internal:8080/api/auth/providers", { headers: { host: "evil.example" } }), config)
    expect((await res.json()).credentials.signinUrl).toBe("https://public.example.com/api/auth/signin/credentials")
    const csrf = await Auth(new Request("http://internal:8080/api/auth/csrf"), config)
    expect(csrf.headers.getSetCookie()[0]).toMatch(/^__Host-sesame\.csrf-token=/)
  })

  it("warns when AUTH_URL's path and basePath disagree, and basePath wins", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example.com/api/auth")
    const log = capture()
    const config: AuthConfig = { secret, basePath: "/auth", providers: [aliceCredentials()], logger: log.logger as AuthConfig["logger"] }
    const res = await Auth(new Request("https://public.example.com/auth/providers"), config)
    expect(res.status).toBe(200)
    expect(log.warnings).toContain("env-url-basepath-redundant")
  })

  it("uses X-Forwarded-Host and -Proto when the host is trusted, and not otherwise", async () => {
    const headers = { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" }
    const trusted = await Auth(new Request("http://localhost:3000/auth/providers", { headers }), jwtConfig())
    expect((await trusted.json()).credentials.signinUrl).toBe("https://app.example.com/auth/signin/credentials")
    vi.stubEnv("AUTH_URL", "http://localhost:3000")
    const pinned = await Auth(new Request("http://localhost:3000/auth/providers", { headers }), jwtConfig({ trustHost: false }))
    expect((await pinned.json()).credentials.signinUrl).toBe(`${origin}/auth/signin/credentials`)
  })

  it("ignores a malformed forwarded host", async () => {
    const res = await Auth(new Request("http://localhost:3000/auth/providers", { headers: { "x-forwarded-host": "evil.example/path@x" } }), jwtConfig())
    expect((await res.json()).credentials.signinUrl).toBe(`${origin}/auth/signin/credentials`)
  })

  it("names provider variables in upper snake case", () => {
    expect(providerEnvName("github")).toBe("GITHUB")
    expect(providerEnvName("microsoft-entra-id")).toBe("MICROSOFT_ENTRA_ID")
    expect(providerEnvName("42-school")).toBe("42_SCHOOL")
    expect(providerEnvName("myIdp")).toBe("MY_IDP")
    expect(providerEnvName("azure-ad-b2c")).toBe("AZURE_AD_B2C")
  })
})

describe("resolution", () => {
  it("resolves a configuration object once, however many requests it serves", async () => {
    let reads = 0
    const providers = [aliceCredentials()]
    const config = {
      secret,
      trustHost: true,
      get providers() {
        reads++
        return providers
      },
    } as AuthConfig
    const jar = new CookieJar()
    await signInAlice(config, jar)
    for (let i = 0; i < 10; i++) await send(config, "/auth/session", { jar })
    expect(reads).toBe(1)
  })

  it("does not modify the user's configuration object", async () => {
    const config = jwtConfig()
    const snapshot = JSON.stringify(config)
    const keys = Object.keys(config)
    await signInAlice(config, new CookieJar())
    expect(JSON.stringify(config)).toBe(snapshot)
    expect(Object.keys(config)).toEqual(keys)
  })

  it("supports lazy configuration: a function of the request", async () => {
    const base = jwtConfig()
    const lazy = vi.fn((req: Request | undefined) => ({ ...base, theme: { brandColor: req?.headers.get("x-brand") ?? "#000" } }))
    const res = await Auth(request("/auth/signin", { headers: { "x-brand": "#ff0000" } }), lazy)
    expect(lazy).toHaveBeenCalledWith(expect.any(Request))
    expect(await res.text()).toContain("--brand:#ff0000")
  })

  it("accepts a provider factory in place of a provider", async () => {
    const factory = () => Credentials({ id: "pw", authorize: () => null })
    const res = await send({ secret, trustHost: true, providers: [factory] }, "/auth/providers")
    expect(Object.keys(await res.json())).toEqual(["pw"])
  })

  it("prints debug messages only with debug: true, and warns once", async () => {
    const debug = vi.fn()
    const warn = vi.fn()
    const quiet = jwtConfig({ logger: { debug, warn } })
    await signInAlice(quiet, new CookieJar())
    expect(debug).not.toHaveBeenCalled()
    const loud = jwtConfig({ debug: true, logger: { debug, warn } })
    await send(loud, "/auth/unknown")
    await send(loud, "/auth/unknown")
    expect(debug).toHaveBeenCalled()
    expect(warn.mock.calls).toEqual([["debug-enabled"]])
  })
})
