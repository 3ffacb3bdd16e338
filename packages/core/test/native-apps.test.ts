/**
 * Native apps (`nativeApps`): the system browser signs in, the app gets a one-time code at its
 * redirect URI and exchanges it, with its PKCE verifier, for a bearer session, which every session
 * read accepts and session management revokes. And the attacks: a redirect URI that is not
 * configured, a code without its verifier, replayed, expired, forged or sent to another redirect
 * URI, a bearer token used to mint codes, a bearer token where native apps are off, a revoked
 * session.
 */
import { describe, expect, it } from "vitest"
import { createHash, randomBytes } from "node:crypto"
import { revokeOtherSessions, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { CookieJar, csrfToken, frozenClock, jwtConfig, origin, request, send, users } from "./helpers.js"

const appUri = "com.example.app:/oauth/callback"
const advance = frozenClock("2026-11-25T10:00:00Z")

function nativeConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  const adapter = MemoryAdapter()
  const { id, name, email } = users.alice
  adapter.tables.users.set(id, { id, name, email, emailVerified: null })
  return jwtConfig({
    adapter,
    session: { strategy: "database" },
    nativeApps: { redirectUris: [appUri, "http://127.0.0.1/callback", "https://app.example.com/native"] },
    ...overrides,
  })
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

function authorizePath(params: Record<string, string>): string {
  return `/auth/native/authorize?${new URLSearchParams(params)}`
}

/** Signs alice in, in a browser (a cookie jar), through the credentials form with `callbackUrl`. */
async function browserSignIn(config: AuthConfig, jar: CookieJar, callbackUrl: string): Promise<Response> {
  const token = await csrfToken(config, jar)
  return send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password, callbackUrl } })
}

/** The whole browser part: authorize, sign in, authorize again and confirm; returns the code and the redirect. */
async function codeFor(config: AuthConfig, challenge: string, redirectUri = appUri): Promise<{ code: string; location: URL; jar: CookieJar }> {
  const jar = new CookieJar()
  const path = authorizePath({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s-123" })
  const first = await send(config, path, { jar })
  expect(first.status).toBe(302)
  const signIn = new URL(first.headers.get("location")!)
  expect(`${signIn.origin}${signIn.pathname}`).toBe(`${origin}/auth/signin`)
  expect(signIn.searchParams.get("callbackUrl")).toBe(path)
  const signedIn = await browserSignIn(config, jar, path)
  expect(signedIn.headers.get("location")).toBe(`${origin}${path}`)
  // Signed in, the page asks the user to confirm, naming the account and the app's address.
  const page = await send(config, path, { jar })
  expect(page.status).toBe(200)
  expect(page.headers.get("location")).toBeNull()
  const html = await page.text()
  expect(html).toContain("alice@example.com")
  expect(html).toContain(redirectUri.replace(/&/g, "&amp;"))
  const form = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!.replace(/&amp;/g, "&")]))
  const back = await send(config, "/auth/native/authorize", { jar, form })
  expect(back.status).toBe(302)
  const location = new URL(back.headers.get("location")!)
  return { code: location.searchParams.get("code")!, location, jar }
}

function exchange(config: AuthConfig, form: Record<string, string>) {
  return send(config, "/auth/native/token", { form: { grant_type: "authorization_code", ...form } })
}

async function bearerSession(config: AuthConfig, token: string): Promise<Response> {
  return send(config, "/auth/session", { headers: { authorization: `Bearer ${token}` } })
}

describe("native app sign-in", () => {
  it("signs in in the browser, hands the app a code, and gives it a bearer session for the PKCE verifier", async () => {
    // Every read extends the session (updateAge 0), which for a browser would re-send the cookie.
    const config = nativeConfig({ session: { strategy: "database", updateAge: 0 } })
    const { verifier, challenge } = pkce()
    const { code, location } = await codeFor(config, challenge)
    expect(`${location.protocol}${location.pathname}`).toBe(appUri)
    expect(location.searchParams.get("state")).toBe("s-123")
    expect(location.searchParams.get("iss")).toBe(`${origin}/auth`)

    const response = await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
    expect(response.headers.getSetCookie()).toEqual([])
    const issued = (await response.json()) as { sessionToken: string; tokenType: string; expiresAt: string }
    expect(issued.tokenType).toBe("Bearer")

    const read = await bearerSession(config, issued.sessionToken)
    expect(((await read.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
    expect(read.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token"))).toEqual([])
  })

  it("accepts a loopback redirect URI on any port, and an app's claimed https link", async () => {
    const config = nativeConfig()
    for (const redirectUri of ["http://127.0.0.1:51234/callback", "https://app.example.com/native"]) {
      const { verifier, challenge } = pkce()
      const { code, location } = await codeFor(config, challenge, redirectUri)
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri)
      expect((await exchange(config, { code, code_verifier: verifier, redirect_uri: redirectUri })).status).toBe(200)
    }
  })

  it("refuses a redirect URI that is not configured, without redirecting anywhere", async () => {
    const config = nativeConfig()
    const jar = new CookieJar()
    await browserSignIn(config, jar, "/")
    const { challenge } = pkce()
    for (const redirectUri of [
      "com.evil.app:/oauth/callback",
      "https://evil.example/native",
      "javascript:alert(1)",
      "http://localhost/callback",
      "http://127.0.0.1:8080/other",
      "http://127.0.0.1.evil.example/callback",
      `${appUri}/../x`,
    ]) {
      const response = await send(config, authorizePath({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" }), { jar })
      expect(response.status).toBe(400)
      expect(response.headers.get("location")).toBeNull()
    }
  })

  it("requires an S256 challenge", async () => {
    const config = nativeConfig()
    const cases: Record<string, string>[] = [{}, { code_challenge: pkce().challenge, code_challenge_method: "plain" }, { code_challenge: "short", code_challenge_method: "S256" }]
    for (const params of cases) {
      const response = await send(config, authorizePath({ redirect_uri: appUri, ...params }))
      expect(response.status).toBe(400)
    }
  })

  it("lets the user cancel: the app hears access_denied with its state", async () => {
    const config = nativeConfig()
    const jar = new CookieJar()
    await browserSignIn(config, jar, "/")
    const html = await (await send(config, authorizePath({ redirect_uri: appUri, code_challenge: pkce().challenge, code_challenge_method: "S256", state: "s-9" }), { jar })).text()
    const cancel = new URL(/<a href="([^"]+)">Cancel<\/a>/.exec(html)![1]!.replace(/&amp;/g, "&"))
    expect(`${cancel.protocol}${cancel.pathname}`).toBe(appUri)
    expect(Object.fromEntries(cancel.searchParams)).toEqual({ error: "access_denied", state: "s-9", iss: `${origin}/auth` })
  })

  it("refuses the code without its verifier, and still honours it with the verifier", async () => {
    const config = nativeConfig()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(config, challenge)
    const stolen = await exchange(config, { code, code_verifier: pkce().verifier, redirect_uri: appUri })
    expect(stolen.status).toBe(400)
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" })
    expect((await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).status).toBe(200)
  })

  it("uses a code once", async () => {
    const config = nativeConfig()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(config, challenge)
    const both = await Promise.all([0, 1].map(() => exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })))
    expect(both.map((response) => response.status).sort()).toEqual([200, 400])
  })

  it("refuses a code sent with another redirect URI, an expired code and a forged one", async () => {
    const config = nativeConfig()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(config, challenge)
    expect((await exchange(config, { code, code_verifier: verifier, redirect_uri: "http://127.0.0.1/callback" })).status).toBe(400)
    const tampered = `${code.slice(0, -4)}AAAA`
    expect((await exchange(config, { code: tampered, code_verifier: verifier, redirect_uri: appUri })).status).toBe(400)
    expect((await exchange(config, { code: "nope", code_verifier: verifier, redirect_uri: appUri })).status).toBe(400)
    advance(121_000)
    expect((await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).status).toBe(400)
  })

  it("never mints a code from a bearer token: only the browser's own sign-in does", async () => {
    const config = nativeConfig()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(config, challenge)
    const { sessionToken } = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { sessionToken: string }
    const path = authorizePath({ redirect_uri: appUri, code_challenge: pkce().challenge, code_challenge_method: "S256" })
    const response = await send(config, path, { headers: { authorization: `Bearer ${sessionToken}` } })
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/signin")
  })
})

describe("bearer sessions", () => {
  async function nativeSession(config: AuthConfig): Promise<{ token: string; jar: CookieJar }> {
    const { verifier, challenge } = pkce()
    const { code, jar } = await codeFor(config, challenge)
    const { sessionToken } = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { sessionToken: string }
    return { token: sessionToken, jar }
  }

  it("signs out with the bearer token alone (no CSRF token), and the token reads nothing after", async () => {
    const config = nativeConfig()
    const { token } = await nativeSession(config)
    const signOut = await send(config, "/auth/signout", { method: "POST", headers: { authorization: `Bearer ${token}` }, form: {} })
    expect(signOut.status).toBe(302)
    expect(await (await bearerSession(config, token)).json()).toBeNull()
  })

  it("is revoked by session management from the browser", async () => {
    const config = nativeConfig()
    const { token, jar } = await nativeSession(config)
    expect(await (await bearerSession(config, token)).json()).not.toBeNull()
    expect(await revokeOtherSessions(request("/account", { jar }), config)).toBe(1)
    expect(await (await bearerSession(config, token)).json()).toBeNull()
  })

  it("lets a session cookie win over a bearer token", async () => {
    const config = nativeConfig()
    const { token } = await nativeSession(config)
    const response = await send(config, "/auth/session", { cookie: "sesame.session-token=garbage", headers: { authorization: `Bearer ${token}` } })
    expect(await response.json()).toBeNull()
  })

  it("is not read where native apps are off", async () => {
    const config = nativeConfig()
    const { token } = await nativeSession(config)
    const withoutNative: AuthConfig = { ...config, nativeApps: undefined }
    expect(await (await bearerSession(withoutNative, token)).json()).toBeNull()
  })

  it("lives no longer than the browser's sign-in it continues", async () => {
    const config = nativeConfig({ session: { strategy: "database", absoluteMaxAge: 3600 } })
    const signedInAt = Date.now()
    const { verifier, challenge } = pkce()
    const { code } = await codeFor(config, challenge)
    advance(100_000)
    const issued = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { expiresAt: string }
    expect(new Date(issued.expiresAt).getTime()).toBe(signedInAt + 3600_000)
  })
})

describe("configuration", () => {
  it("needs database sessions and redirect URIs an app can own", async () => {
    const cases: [Partial<AuthConfig>, RegExp][] = [
      [{ session: { strategy: "jwt" } }, /database sessions/],
      [{ nativeApps: { redirectUris: [] } }, /redirectUris/],
      [{ nativeApps: { redirectUris: ["myapp:/callback"] } }, /reverse-domain/],
      [{ nativeApps: { redirectUris: ["http://example.com/callback"] } }, /plain http/],
      [{ nativeApps: { redirectUris: ["http://localhost/callback"] } }, /plain http/],
      [{ nativeApps: { redirectUris: ["javascript:alert(1)"] } }, /never a redirect target/],
    ]
    for (const [overrides, message] of cases) {
      const errors: Error[] = []
      const config = nativeConfig({ ...overrides, logger: { error: (error) => errors.push(error), warn: () => {} } })
      expect((await send(config, "/auth/session")).status).toBe(500)
      expect(errors.map((error) => error.message).join("\n")).toMatch(message)
    }
  })
})
