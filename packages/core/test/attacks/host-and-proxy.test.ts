/**
 * Forged hosts: every link, `redirect_uri`, sealed state and redirect is built on the app's origin,
 * so an attacker who can make the app believe another origin (a forged `Host` or
 * `X-Forwarded-Host`, a proxy that appends to the header instead of overwriting it) gets emailed
 * links and OAuth codes sent to himself. And the redirect proxy for preview deployments forwards
 * authorization codes to whatever origin a sealed state names.
 *
 * Defence (`http/context.ts`, `config/origins.ts`, `oauth/proxy.ts`): the origin comes only from
 * what the app trusts (AUTH_URL; with `trustHost`, the nearest proxy's header value; else loopback
 * hosts only), and the proxy forwards only to `trustedOrigins`.
 */
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, type AuthConfig } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { serve, type TestServer } from "@sesame/testing"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { recordingEmail, requestLink } from "../email/helpers.js"
import { aliceCredentials, CookieJar, origin, recordingLogger, secret, send } from "../helpers.js"
import { atProvider, callbackUrl, client, oidc, startIdp, startSignIn } from "../oauth/harness.js"
import { MemoryAdapter } from "@sesame/core/adapters"

const evil = "evil.example"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev")] })
})
afterAll(() => idp.close())
afterEach(() => vi.unstubAllEnvs())

/** An environment with nothing said: no NODE_ENV, no AUTH_URL, no AUTH_TRUST_HOST (a server started by hand). */
function bareEnvironment() {
  for (const name of ["NODE_ENV", "AUTH_URL", "SESAME_URL", "AUTH_TRUST_HOST", "SESAME_TRUST_HOST", "VERCEL", "CF_PAGES", "AUTH_SECRET", "SESAME_SECRET"]) {
    vi.stubEnv(name, undefined)
  }
}

/** A configuration that says nothing about hosts, with a logger that keeps errors. */
function appWithoutHostSettings(overrides: Partial<AuthConfig> = {}) {
  const { lines, logger } = recordingLogger()
  const email = recordingEmail()
  const config: AuthConfig = {
    secret,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    providers: [aliceCredentials(), oidc(idp), email.provider],
    logger,
    ...overrides,
  }
  return { config, logs: lines, sent: email.sent }
}

function get(config: AuthConfig, url: string, headers: Record<string, string>): Promise<Response> {
  return Auth(new Request(url, { headers }), config)
}

describe("no AUTH_URL and no trustHost: loopback hosts only", () => {
  it("refuses a request for a foreign Host, saying what to configure, with no link to it", async () => {
    bareEnvironment()
    const { config, logs } = appWithoutHostSettings()
    const page = await get(config, "http://localhost:3000/auth/signin", { host: evil })
    expect(page.status).toBe(500)
    expect(await page.text()).not.toContain(evil)
    const json = await get(config, "http://localhost:3000/auth/providers", { host: evil })
    expect(json.status).toBe(500)
    expect(await json.text()).not.toContain(evil)
    expect(logs.join("\n")).toMatch(/UntrustedHost.*AUTH_URL.*trustHost/s)
  })

  it("sends no emailed link to a foreign host", async () => {
    bareEnvironment()
    const { config, sent } = appWithoutHostSettings()
    const jar = new CookieJar()
    const csrf = await send(config, "/auth/csrf", { jar })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await send(config, "/auth/signin/email", { jar, form: { csrfToken, email: "alice@example.com" }, headers: { host: evil } })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.headers.get("location") ?? "").not.toContain(evil)
    expect(sent).toEqual([])
  })

  it("ignores X-Forwarded-Host and X-Forwarded-Proto: links, redirect_uri and the authorization redirect stay on the request's loopback host", async () => {
    bareEnvironment()
    const { config, sent } = appWithoutHostSettings()
    const forged = { "x-forwarded-host": evil, "x-forwarded-proto": "https" }
    const providers = await send(config, "/auth/providers", { headers: forged })
    expect(((await providers.json()) as { dev: { callbackUrl: string } }).dev.callbackUrl).toBe(`${origin}/auth/callback/dev`)

    const jar = new CookieJar()
    const { csrfToken } = (await (await send(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const start = await send(config, "/auth/signin/dev", { jar, form: { csrfToken }, headers: forged })
    const authorization = new URL(start.headers.get("location")!)
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/dev`)

    await requestLink(config, jar, "alice@example.com", { headers: forged })
    expect(new URL(sent.at(-1)!.url).origin).toBe(origin)
  })

  it("serves localhost, 127.0.0.1 and [::1] from their Host header (the development default)", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings()
    for (const host of ["localhost:3000", "127.0.0.1:5173", "[::1]:8080", "app.localhost:3000"]) {
      const response = await get(config, `http://${host}/auth/providers`, { host })
      expect(response.status).toBe(200)
      expect(((await response.json()) as { dev: { signinUrl: string } }).dev.signinUrl).toBe(`http://${host}/auth/signin/dev`)
    }
    const jar = new CookieJar()
    const { csrfToken } = (await (await send(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const signedIn = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: "correct horse" } })
    expect(signedIn.headers.get("location")).toBe(`${origin}/`)
  })

  it("production without AUTH_URL or trustHost refuses to start, as before", async () => {
    bareEnvironment()
    vi.stubEnv("NODE_ENV", "production")
    const { config, logs } = appWithoutHostSettings()
    expect((await get(config, "http://localhost:3000/auth/providers", { host: "localhost:3000" })).status).toBe(500)
    expect(logs.join("\n")).toMatch(/UntrustedHost/)
  })
})

describe("no secret (a server started without NODE_ENV, as a built SolidStart app is)", () => {
  it("the generated secret serves loopback hosts only, even with trustHost or AUTH_URL", async () => {
    bareEnvironment()
    const proxied = appWithoutHostSettings({ secret: undefined, trustHost: true })
    const refused = await get(proxied.config, "http://localhost:3000/auth/providers", { host: evil })
    expect(refused.status).toBe(500)
    expect(await refused.text()).not.toContain(evil)
    expect(proxied.logs.join("\n")).toMatch(/MissingSecretError.*AUTH_SECRET/s)

    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const pinned = appWithoutHostSettings({ secret: undefined })
    expect((await get(pinned.config, "https://app.example.com/auth/providers", {})).status).toBe(500)
  })

  it("works on a loopback host, as in local development", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ secret: undefined })
    const response = await get(config, "http://localhost:3000/auth/providers", { host: "localhost:3000" })
    expect(response.status).toBe(200)
  })
})

describe("behind a proxy the app trusts (trustHost)", () => {
  it("believes the value the nearest proxy appended, not the client's", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ trustHost: true })
    const response = await get(config, "http://internal:8080/auth/providers", {
      host: "internal:8080",
      "x-forwarded-host": `${evil}, app.example.com`,
      "x-forwarded-proto": "http, https",
    })
    expect(((await response.json()) as { dev: { signinUrl: string } }).dev.signinUrl).toBe("https://app.example.com/auth/signin/dev")
  })

  it("each request gets the origin of its own headers, never one worked out for an earlier request", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ trustHost: true })
    const signinUrl = async (headers: Record<string, string>) =>
      ((await (await get(config, "http://internal:8080/auth/providers", { host: "internal:8080", ...headers })).json()) as { dev: { signinUrl: string } }).dev.signinUrl
    expect(await signinUrl({ "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" })).toBe("https://app.example.com/auth/signin/dev")
    expect(await signinUrl({ "x-forwarded-host": "other.example.com", "x-forwarded-proto": "https" })).toBe("https://other.example.com/auth/signin/dev")
    expect(await signinUrl({ "x-forwarded-host": "app.example.com", "x-forwarded-proto": "http" })).toBe("http://app.example.com/auth/signin/dev")
    expect(await signinUrl({ "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" })).toBe("https://app.example.com/auth/signin/dev")
  })

  it("a request without a Host header (HTTP/2, a Request built without one) cannot set the origin of the next one", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ trustHost: true })
    const signinUrl = async (url: string) => ((await (await Auth(new Request(url), config)).json()) as { dev: { signinUrl: string } }).dev.signinUrl
    expect(await signinUrl("https://evil.example/auth/providers")).toBe("https://evil.example/auth/signin/dev")
    expect(await signinUrl("https://good.example/auth/providers")).toBe("https://good.example/auth/signin/dev")
  })

  it("through a real reverse proxy that overwrites the headers, a forged X-Forwarded-Host reaches nothing", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ trustHost: true })
    const app: TestServer = await serve((request) => Auth(request, config))
    const upstream = new URL(app.origin)
    // The proxy sets X-Forwarded-Host and -Proto to what it itself received, dropping the client's.
    const proxy: Server = createServer((req, res) => {
      const headers = { ...req.headers, "x-forwarded-host": req.headers.host, "x-forwarded-proto": "http" }
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      req.pipe(forward)
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    const proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    try {
      const response = await fetch(`${proxyOrigin}/auth/providers`, { headers: { "x-forwarded-host": evil } })
      expect(((await response.json()) as { dev: { signinUrl: string } }).dev.signinUrl).toBe(`${proxyOrigin}/auth/signin/dev`)
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
      await app.close()
    }
  })
})

describe("AUTH_URL wins over any header", () => {
  it("for the providers list, the redirect_uri, redirects and emailed links", async () => {
    bareEnvironment()
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const { config, sent } = appWithoutHostSettings({ trustHost: true })
    const forged = { host: evil, "x-forwarded-host": evil, "x-forwarded-proto": "http" }
    const list = await get(config, "https://app.example.com/auth/providers", forged)
    expect(((await list.json()) as { dev: { signinUrl: string } }).dev.signinUrl).toBe("https://app.example.com/auth/signin/dev")

    const jar = new CookieJar()
    const csrfResponse = await Auth(new Request("https://app.example.com/auth/csrf", { headers: forged }), config)
    jar.apply(csrfResponse)
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string }
    // Secure cookies on https: the jar sends them back as a browser would.
    const post = (path: string, form: Record<string, string>) =>
      Auth(
        new Request(`https://app.example.com/auth/${path}`, {
          method: "POST",
          headers: { ...forged, cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form).toString(),
        }),
        config,
      )
    const start = await post("signin/dev", { csrfToken })
    expect(new URL(start.headers.get("location")!).searchParams.get("redirect_uri")).toBe("https://app.example.com/auth/callback/dev")
    const link = await post("signin/email", { csrfToken, email: "alice@example.com" })
    expect(new URL(link.headers.get("location")!).origin).toBe("https://app.example.com")
    expect(new URL(sent.at(-1)!.url).origin).toBe("https://app.example.com")
  })
})

/** The stable deployment, whose callback URL the provider knows: the redirect proxy. */
const stable = `${origin}/auth`

/** A deployment behind a trusted proxy that sends OAuth callbacks through `stable`. */
function deployment(overrides: Partial<AuthConfig> = {}) {
  const { config } = appWithoutHostSettings({ trustHost: true, redirectProxyUrl: stable, providers: [oidc(idp)], ...overrides })
  return config
}

describe("the redirect proxy", () => {
  it("does not forward a victim's code to an origin the attacker forged when starting the sign-in", async () => {
    // The attacker starts a sign-in with a forged X-Forwarded-Host at a deployment that trusts
    // headers: its sealed state names his origin. He hands the authorization URL to the victim.
    const proxy = deployment({ trustedOrigins: ["http://*.preview.localhost:3001"] })
    const attacker = new CookieJar()
    const { csrfToken } = (await (await send(proxy, "/auth/csrf", { jar: attacker })).json()) as { csrfToken: string }
    const start = await send(proxy, "/auth/signin/dev", { jar: attacker, form: { csrfToken }, headers: { "x-forwarded-host": `${evil}:3000` } })
    const authorization = start.headers.get("location")!
    expect(new URL(authorization).searchParams.get("redirect_uri")).toBe(callbackUrl("dev", stable))

    // The victim signs in at the provider, which sends their browser to the proxy with the code.
    const answer = await atProvider(authorization, callbackUrl("dev", stable))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    const code = new URL(answer.url).searchParams.get("code")!
    const victim = new CookieJar()
    const forwarded = await send(proxy, answer.url, { jar: victim })
    const location = forwarded.headers.get("location") ?? ""
    expect(new URL(location).host).not.toContain(evil)
    expect(location).not.toContain(code)
    expect(new URL(location).origin).toBe(origin)
  })

  it("forwards to a preview deployment the app trusts through a wildcard pattern", async () => {
    const preview = "http://pr-7.preview.localhost:3001/auth"
    const proxy = deployment({ trustedOrigins: ["http://*.preview.localhost:3001"] })
    const previewApp = deployment()
    const jar = new CookieJar()
    const start = await startSignIn(previewApp, jar, "dev", { base: preview })
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev", stable))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    const forwarded = await send(proxy, answer.url, { jar: new CookieJar() })
    const target = new URL(forwarded.headers.get("location")!)
    expect(`${target.origin}${target.pathname}`).toBe(`${preview}/callback/dev`)
    const done = await send(previewApp, target.href, { jar })
    expect(done.headers.get("location")).toBe("http://pr-7.preview.localhost:3001/")
  })

  it("a pattern matches one DNS label only", async () => {
    const preview = "http://a.b.preview.localhost:3001/auth"
    const proxy = deployment({ trustedOrigins: ["http://*.preview.localhost:3001"] })
    const start = await startSignIn(deployment(), new CookieJar(), "dev", { base: preview })
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev", stable))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    const forwarded = await send(proxy, answer.url, { jar: new CookieJar() })
    expect(new URL(forwarded.headers.get("location")!).origin).toBe(origin)
  })
})

describe("trustedOrigins validation", () => {
  it.each([
    ["https://*.com"],
    ["https://*"],
    ["https://*.*.com"],
    ["https://*.co.uk"],
    ["https://a*b*.example.com"],
    ["https://example.com:443"],
    ["http://[::FFFF:127.0.0.1]"],
    ["https://example.com/path"],
    ["example.com"],
    ["https://ex ample.com"],
  ])(
    "refuses %s as a configuration error",
    async (pattern) => {
      const { config, logs } = appWithoutHostSettings({ trustHost: true, trustedOrigins: [pattern] })
      expect((await send(config, "/auth/providers")).status).toBe(500)
      expect(logs.join("\n")).toMatch(/trustedOrigins/)
    },
  )

  it("accepts a wildcard under a registrable domain, country second levels included", async () => {
    const { config } = appWithoutHostSettings({ trustHost: true, trustedOrigins: ["https://*.example.co.uk", "https://*.preview.example.com:8443"] })
    expect((await send(config, "/auth/providers")).status).toBe(200)
  })

  it("warns about a wildcard right under a shared hosting domain", async () => {
    const warnings: string[] = []
    const { config } = appWithoutHostSettings({ trustHost: true, trustedOrigins: ["https://*.vercel.app"] })
    const withWarnings: AuthConfig = { ...config, logger: { error: () => {}, debug: () => {}, warn: (code) => void warnings.push(code) } }
    expect((await send(withWarnings, "/auth/providers")).status).toBe(200)
    expect(warnings).toContain("trusted-origin-shared-domain")
  })

  it("reads AUTH_TRUSTED_ORIGINS", async () => {
    vi.stubEnv("AUTH_TRUSTED_ORIGINS", "http://pr-9.preview.localhost:3001, https://other.example.com")
    const proxy = deployment()
    const preview = "http://pr-9.preview.localhost:3001/auth"
    const start = await startSignIn(deployment(), new CookieJar(), "dev", { base: preview })
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev", stable))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    const forwarded = await send(proxy, answer.url, { jar: new CookieJar() })
    expect(new URL(forwarded.headers.get("location")!).origin).toBe("http://pr-9.preview.localhost:3001")
  })
})

describe("a configuration that does not resolve", () => {
  it("never writes the request's Host into its redirect to pages.error or the error page's links", async () => {
    bareEnvironment()
    const { config } = appWithoutHostSettings({ trustHost: true, pages: { error: "/oops", signIn: "/login" }, session: { maxAge: -1 } })
    const redirected = await get(config, `http://${evil}/auth/signin`, { host: evil })
    expect(redirected.headers.get("location")).toBe("/oops?error=Configuration")
    const { config: pageConfig } = appWithoutHostSettings({ trustHost: true, pages: { signIn: "/login" }, session: { maxAge: -1 } })
    const page = await get(pageConfig, `http://${evil}/auth/signin`, { host: evil })
    expect(page.status).toBe(500)
    expect(await page.text()).not.toContain(evil)
  })

  it("uses AUTH_URL's origin when it is set", async () => {
    bareEnvironment()
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const { config } = appWithoutHostSettings({ pages: { error: "/oops" }, session: { maxAge: -1 } })
    const redirected = await get(config, `http://${evil}/auth/signin`, { host: evil })
    expect(redirected.headers.get("location")).toBe("https://app.example.com/oops?error=Configuration")
  })
})

describe("trustedOrigins and state-changing requests", () => {
  it("a page on a trusted origin may post to the endpoints; any other origin is refused", async () => {
    const { config } = appWithoutHostSettings({ trustHost: true, trustedOrigins: ["https://*.app.example.com"] })
    const attempt = async (from: string) => {
      const jar = new CookieJar()
      const { csrfToken } = (await (await send(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
      return send(config, "/auth/callback/credentials", {
        jar,
        form: { csrfToken, username: "alice", password: "correct horse" },
        headers: { origin: from, "sec-fetch-site": "same-site" },
      })
    }
    expect((await attempt("https://www.app.example.com")).headers.get("location")).toBe(`${origin}/`)
    const refused = await attempt("https://evil.example.com")
    expect(refused.status).toBe(403)
    expect(refused.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false)
  })
})
