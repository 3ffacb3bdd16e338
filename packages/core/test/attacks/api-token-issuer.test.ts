/**
 * The issuer of API tokens and of native apps' authorization answers, from a forged host. With
 * `trustHost` and no `AUTH_URL`, the app's origin follows `Host` / `X-Forwarded-Host`
 * (`http/context.ts`): an attacker who sends `Host: evil.example` with his own session used to get
 * a token signed with the app's key whose `iss` names his host, and a native app's answer whose
 * `iss` (RFC 9207) did too.
 *
 * Defence (`http/issuer.ts`): the issuer is `apiTokens.issuer`, else `AUTH_URL`'s origin plus the
 * base path, else the request's origin for a loopback host only (local development); any other
 * request gets no token, and the configuration error (`UntrustedHost`) is logged saying to set
 * `AUTH_URL` or `apiTokens.issuer`.
 */
import { createHash, randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { decodeJwt, type JSONWebKeySet } from "jose"
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { getApiToken } from "@sesame/core/api-tokens"
import { verifyApiToken } from "@sesame/core/verify"
import { CookieJar, jwtConfig, origin, recordingLogger, send, signInAlice, users } from "../helpers.js"

const evil = "evil.example"
const audience = "https://api.example.com"
const appUri = "com.example.app:/oauth/callback"

afterEach(() => vi.unstubAllEnvs())

/** Nothing said about the app's URL: no AUTH_URL, no SESAME_URL (the configurations say `trustHost: true`). */
function noPublicUrl() {
  for (const name of ["AUTH_URL", "SESAME_URL", "NODE_ENV"]) vi.stubEnv(name, undefined)
}

function adapterWithAlice() {
  const adapter = MemoryAdapter()
  const { id, name, email } = users.alice
  adapter.tables.users.set(id, { id, name, email, emailVerified: null })
  return adapter
}

/** API tokens behind a proxy the app trusts (`trustHost: true`), with a logger that keeps errors. */
function tokensApp(apiTokens: Partial<NonNullable<AuthConfig["apiTokens"]>> = {}, overrides: Partial<AuthConfig> = {}) {
  const { lines, logger } = recordingLogger()
  const config = jwtConfig({ adapter: adapterWithAlice(), logger, ...overrides, apiTokens: { audience, ...apiTokens } })
  return { config, logs: lines }
}

/** The `iss` of the token the response carries; null when it carries none. */
async function issuedIss(response: Response): Promise<string | null> {
  if (response.status !== 200) return null
  const { token } = (await response.json()) as { token?: string }
  return typeof token === "string" ? (decodeJwt(token).iss ?? null) : null
}

async function keySet(config: AuthConfig): Promise<JSONWebKeySet> {
  return (await (await send(config, "/auth/jwks")).json()) as JSONWebKeySet
}

describe("trustHost, no AUTH_URL and no apiTokens.issuer: a forged host gets no token", () => {
  it.each([
    ["Host", { host: evil }],
    ["X-Forwarded-Host", { "x-forwarded-host": evil }],
    ["X-Forwarded-Host with a port and proto", { "x-forwarded-host": `${evil}:8443`, "x-forwarded-proto": "http" }],
  ])("refuses a signed-in attacker's request with a forged %s, and logs what to set", async (_, forged) => {
    noPublicUrl()
    const { config, logs } = tokensApp()
    // The attacker's own account, signed in the ordinary way.
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const response = await send(config, "/auth/token", { jar, headers: forged })
    expect(await issuedIss(response), "a token was issued naming the forged host").toBeNull()
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    expect(logs.join("\n")).toMatch(/UntrustedHost.*AUTH_URL.*apiTokens\.issuer/s)
  })

  it("refuses it whoever asks, signed in or not, so that the misconfiguration shows at once", async () => {
    noPublicUrl()
    const { config, logs } = tokensApp()
    const response = await send(config, "/auth/token", { headers: { host: evil } })
    expect(response.status).toBe(302)
    expect(logs.join("\n")).toMatch(/UntrustedHost/)
  })

  it("the server helper getApiToken throws the configuration error instead of returning a token", async () => {
    noPublicUrl()
    const { config } = tokensApp()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const page = new Request(`http://${evil}/dashboard`, { headers: { host: evil, cookie: jar.header() } })
    await expect(getApiToken(page, config)).rejects.toMatchObject({ type: "UntrustedHost" })
  })

  it("the key set stays public: it names no issuer", async () => {
    noPublicUrl()
    const { config } = tokensApp()
    const response = await send(config, "/auth/jwks", { headers: { host: evil } })
    expect(response.status).toBe(200)
    expect(await response.text()).not.toContain(evil)
  })
})

describe("the issuer is fixed by configuration, whatever the request's headers say", () => {
  const forged = { host: evil, "x-forwarded-host": evil, "x-forwarded-proto": "https" }

  it.each([
    ["https://app.example", "/auth", "https://app.example/auth"],
    ["https://app.example/api/auth", "/api/auth", "https://app.example/api/auth"],
  ])("AUTH_URL=%s: the token's iss is AUTH_URL's origin plus the base path", async (authUrl, basePath, issuer) => {
    noPublicUrl()
    vi.stubEnv("AUTH_URL", authUrl)
    const { config } = tokensApp()
    const jar = new CookieJar()
    await signInAlice(config, jar, basePath)
    const response = await send(config, `${basePath}/token`, { jar, headers: forged })
    expect(await issuedIss(response.clone())).toBe(issuer)
    const { token } = (await response.json()) as { token: string }
    const jwks = (await (await send(config, `${basePath}/jwks`)).json()) as JSONWebKeySet
    expect((await verifyApiToken(token, { jwks, issuer, audience })).sub).toBe(users.alice.id)
  })

  it("apiTokens.issuer wins over AUTH_URL and over any header", async () => {
    noPublicUrl()
    const issuer = "https://issuer.example.com"
    const { config } = tokensApp({ issuer })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(await issuedIss(await send(config, "/auth/token", { jar, headers: { host: evil } }))).toBe(issuer)

    vi.stubEnv("AUTH_URL", "https://app.example")
    const pinned = tokensApp({ issuer })
    const pinnedJar = new CookieJar()
    await signInAlice(pinned.config, pinnedJar)
    expect(await issuedIss(await send(pinned.config, "/auth/token", { jar: pinnedJar, headers: forged }))).toBe(issuer)
  })
})

describe("local development: a loopback host still gets tokens without any setting", () => {
  it.each(["localhost:3000", "127.0.0.1:5173", "[::1]:8080"])("on %s, the iss is the request's origin plus the base path", async (host) => {
    noPublicUrl()
    const { config } = tokensApp()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const response = await send(config, `http://${host}/auth/token`, { jar })
    expect(await issuedIss(response.clone())).toBe(`http://${host}/auth`)
    const { token } = (await response.json()) as { token: string }
    expect((await verifyApiToken(token, { jwks: await keySet(config), issuer: `http://${host}/auth`, audience })).sub).toBe(users.alice.id)
  })
})

describe("native apps: the authorization answer's iss follows the same rule", () => {
  function nativeApp() {
    const { lines, logger } = recordingLogger()
    const config = jwtConfig({ adapter: adapterWithAlice(), logger, session: { strategy: "database" }, nativeApps: { redirectUris: [appUri] } })
    return { config, logs: lines }
  }

  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url")
  const authorize = `/auth/native/authorize?${new URLSearchParams({ redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256", state: "s-1" })}`

  /** The confirmation page's form, as the user's button posts it. */
  async function confirmationForm(config: AuthConfig, jar: CookieJar, headers: Record<string, string> = {}): Promise<Response> {
    return send(config, authorize, { jar, headers })
  }

  function formOf(html: string): Record<string, string> {
    return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!.replace(/&amp;/g, "&")]))
  }

  it("with trustHost and no AUTH_URL, a forged Host gets neither the page nor a code naming it", async () => {
    noPublicUrl()
    const { config, logs } = nativeApp()
    const jar = new CookieJar()
    expect((await signInAlice(config, jar)).status).toBe(302)
    const page = await confirmationForm(config, jar, { host: evil })
    expect(page.status).toBe(302)
    expect(page.headers.get("location") ?? "").not.toContain(appUri)
    // Posting the confirmation directly (the form of a legitimate page, the forged host on the post).
    const form = formOf(await (await confirmationForm(config, jar)).text())
    const posted = await send(config, "/auth/native/authorize", { jar, form, headers: { host: evil } })
    const location = posted.headers.get("location") ?? ""
    expect(location.startsWith(appUri), "a code was sent to the app with the forged host as its iss").toBe(false)
    expect(logs.join("\n")).toMatch(/UntrustedHost.*AUTH_URL/s)
  })

  it("with AUTH_URL, the iss is AUTH_URL's origin plus the base path, whatever the Host", async () => {
    noPublicUrl()
    vi.stubEnv("AUTH_URL", "https://app.example")
    const { config } = nativeApp()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const page = await confirmationForm(config, jar, { host: evil })
    expect(page.status).toBe(200)
    const posted = await send(config, "/auth/native/authorize", { jar, form: formOf(await page.text()), headers: { host: evil } })
    const location = new URL(posted.headers.get("location")!)
    expect(location.searchParams.get("code")).toBeTruthy()
    expect(location.searchParams.get("iss")).toBe("https://app.example/auth")
  })

  it("on localhost without any setting, the iss is the request's origin plus the base path", async () => {
    noPublicUrl()
    const { config } = nativeApp()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const page = await confirmationForm(config, jar)
    const posted = await send(config, "/auth/native/authorize", { jar, form: formOf(await page.text()) })
    expect(new URL(posted.headers.get("location")!).searchParams.get("iss")).toBe(`${origin}/auth`)
  })
})
