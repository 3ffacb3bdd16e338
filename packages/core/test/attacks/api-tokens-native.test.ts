/**
 * Attacks on API tokens, the key set, the verifier and native-app bearer sessions (issue 23), from
 * an attacker's review: each `describe` names what an attacker tried; every test asserts that it
 * fails now, beside the legitimate flow. (The flows themselves: api-tokens/*.test.ts and
 * native-apps.test.ts.)
 */
import { createHash, randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet } from "jose"
import { revokeOtherSessions, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { getApiToken } from "@sesame/core/api-tokens"
import { ApiTokenError, verifyApiToken } from "@sesame/core/verify"
import { CookieJar, csrfToken, frozenClock, jwtConfig, origin, request, send, signInAlice, users } from "../helpers.js"
import { signingKeyModel } from "../../src/tokens/storage.js"

const audience = "https://api.example.com"
const issuer = `${origin}/auth`
const appUri = "com.example.app:/oauth/callback"
const minute = 60_000
const advance = frozenClock("2026-11-25T10:00:00Z")

function adapterWithAlice() {
  const adapter = MemoryAdapter()
  const { id, name, email } = users.alice
  adapter.tables.users.set(id, { id, name, email, emailVerified: null })
  return adapter
}

function tokensConfig(adapter = adapterWithAlice(), overrides: Partial<AuthConfig> = {}, apiTokens: Partial<NonNullable<AuthConfig["apiTokens"]>> = {}): AuthConfig {
  return jwtConfig({ adapter, ...overrides, apiTokens: { audience, ...apiTokens } })
}

function nativeConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return jwtConfig({
    adapter: adapterWithAlice(),
    session: { strategy: "database" },
    nativeApps: { redirectUris: [appUri, "http://127.0.0.1/callback"] },
    ...overrides,
  })
}

async function apiToken(config: AuthConfig, jar?: CookieJar): Promise<string> {
  const browser = jar ?? new CookieJar()
  if (!jar) await signInAlice(config, browser)
  const response = await send(config, "/auth/token", { jar: browser })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

async function keySet(config: AuthConfig): Promise<JSONWebKeySet> {
  return (await (await send(config, "/auth/jwks")).json()) as JSONWebKeySet
}

async function verdict(token: string, config: AuthConfig): Promise<true | string> {
  try {
    await verifyApiToken(token, { jwks: await keySet(config), issuer, audience })
    return true
  } catch (error) {
    if (error instanceof ApiTokenError) return error.code
    throw error
  }
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

function authorizePath(params: Record<string, string>): string {
  return `/auth/native/authorize?${new URLSearchParams(params)}`
}

async function signedInBrowser(config: AuthConfig): Promise<CookieJar> {
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
  expect(response.status).toBe(302)
  return jar
}

function exchange(config: AuthConfig, form: Record<string, string>) {
  return send(config, "/auth/native/token", { form })
}

/** What the browser's user does: opens the authorization URL, then confirms on the page; the code the app receives. */
async function mintCode(config: AuthConfig, browser: CookieJar, params: Record<string, string>): Promise<string> {
  const page = await send(config, authorizePath(params), { jar: browser })
  expect(page.status).toBe(200)
  const html = await page.text()
  const form = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&")]))
  const confirmed = await send(config, "/auth/native/authorize", { jar: browser, form })
  expect(confirmed.status).toBe(302)
  return new URL(confirmed.headers.get("location")!).searchParams.get("code")!
}

describe("native/authorize asks the signed-in user before any code is made", () => {
  it("a local process listening on a loopback port gets a bearer session for the browser's user from one GET", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    // The attacker (any local process, or any app claiming the scheme) makes its own PKCE pair,
    // listens on a free loopback port and asks the OS to open the URL: the browser sends its cookie.
    const { verifier, challenge } = pkce()
    const stolenUri = "http://127.0.0.1:49999/callback"
    const opened = await send(config, authorizePath({ redirect_uri: stolenUri, code_challenge: challenge, code_challenge_method: "S256" }), {
      jar: browser,
      headers: { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" },
    })
    const location = opened.headers.get("location") ?? ""
    const code = location.startsWith(stolenUri) ? new URL(location).searchParams.get("code") : null
    if (code) {
      const issued = await exchange(config, { code, code_verifier: verifier, redirect_uri: stolenUri })
      const { sessionToken } = (await issued.json()) as { sessionToken: string }
      const me = await send(config, "/auth/session", { headers: { authorization: `Bearer ${sessionToken}` } })
      expect(((await me.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
    }
    // RFC 8252 §8.6: no automatic authorization without user interaction when the client's
    // identity cannot be assured: the user sees who is signing in where, and must confirm.
    expect(code, "a code was minted and sent to the loopback listener without any user interaction").toBeNull()
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain("alice@example.com")
    // The confirmation is a form of the app's own origin with its CSRF token: without it, nothing.
    const forged = await send(config, "/auth/native/authorize", {
      jar: browser,
      form: { redirect_uri: stolenUri, code_challenge: challenge, code_challenge_method: "S256" },
    })
    expect(forged.headers.get("location") ?? "").not.toMatch(/[?&]code=/)
  })

  it("a page of another site gets no code, neither by a link nor by posting the confirmation", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const { challenge } = pkce()
    const params = { redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256" }
    const opened = await send(config, authorizePath(params), { jar: browser, headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" } })
    expect(opened.headers.get("location") ?? "").not.toMatch(/[?&]code=/)
    const token = await csrfToken(config, browser)
    const posted = await send(config, "/auth/native/authorize", { jar: browser, form: { ...params, csrfToken: token }, headers: { origin: "https://evil.example" } })
    expect(posted.status).toBe(403)
    expect(posted.headers.get("location") ?? "").not.toMatch(/[?&]code=/)
    // The user's own confirmation on the page works.
    expect(await mintCode(config, browser, params)).toBeTruthy()
  })
})

describe("the key ring uses only the keys its secrets open", () => {
  it("an instance with another secret on the same database (a preview deployment) makes production sign with a withdrawn key", async () => {
    const adapter = adapterWithAlice()
    const production = tokensConfig(adapter)
    const preview = tokensConfig(adapter, { secret: "preview-secret-0123456789-abcdefghijklmnopqrstu" })
    expect(await verdict(await apiToken(production), production)).toBe(true)
    advance(minute)
    await apiToken(preview)
    // lead (6 min) + token lifetime (15 min) + skew (1 min) later:
    advance(23 * minute)
    const token = await apiToken(production)
    const published = (await keySet(production)).keys.map((key) => key.kid)
    expect(published, "production signs with a kid it no longer publishes").toContain(decodeProtectedHeader(token).kid)
    expect(await verdict(token, production)).toBe(true)
  })

  it("a row written to the signing-key table (no secret known) puts the writer's public key in the key set: forged tokens for any user verify", async () => {
    const adapter = adapterWithAlice()
    const config = tokensConfig(adapter)
    await apiToken(config)
    const attacker = await generateKeyPair("EdDSA", { extractable: true })
    await adapter.store.create(signingKeyModel, {
      id: "evil",
      algorithm: "EdDSA",
      publicKey: JSON.stringify(await exportJWK(attacker.publicKey)),
      privateKey: "not.a.sealed.key.at-all",
      createdAt: new Date(Date.now() - 10 * minute),
    })
    advance(61_000) // the instance reads its list again
    const now = Math.floor(Date.now() / 1000)
    const forged = await new SignJWT({ sub: "admin", jti: "x" })
      .setProtectedHeader({ alg: "EdDSA", kid: "evil", typ: "at+jwt" })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(attacker.privateKey)
    expect(await verdict(forged, config)).not.toBe(true)

    // Nor with the app's own sealed private key copied beside the writer's public key.
    const [own] = (await adapter.store.findMany(signingKeyModel)).filter((key) => key.id !== "evil")
    await adapter.store.create(signingKeyModel, { ...own!, id: "evil-2", publicKey: JSON.stringify(await exportJWK(attacker.publicKey)) })
    advance(61_000)
    const forged2 = await new SignJWT({ sub: "admin", jti: "y" })
      .setProtectedHeader({ alg: "EdDSA", kid: "evil-2", typ: "at+jwt" })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(attacker.privateKey)
    expect(await verdict(forged2, config)).toBe("unknown-key")
    expect((await keySet(config)).keys.map((key) => key.kid)).toEqual([own!.id])
  })
})

describe("a rotationAge that would make a key on every request is refused", () => {
  it("is a configuration error; an hour signs several tokens with one key", async () => {
    const adapter = adapterWithAlice()
    const errors: Error[] = []
    const tooShort = tokensConfig(adapter, { logger: { error: (error) => errors.push(error), warn: () => {} } }, { rotationAge: 300 })
    expect((await send(tooShort, "/auth/jwks")).status).toBe(500)
    expect(errors.map((error) => error.message).join("\n")).toMatch(/rotationAge/)
    expect(await adapter.store.count(signingKeyModel)).toBe(0)
    const hourly = tokensConfig(adapter, {}, { rotationAge: 3600 })
    const jar = new CookieJar()
    await signInAlice(hourly, jar)
    for (let i = 0; i < 5; i++) await apiToken(hourly, jar)
    expect(await adapter.store.count(signingKeyModel)).toBe(1)
  })
})

describe("getApiToken serves the app's server whatever link brought the browser", () => {
  it("a signed-in user who followed a link from their webmail is told to sign in", async () => {
    const config = tokensConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const page = { url: `${origin}/dashboard`, headers: new Headers({ cookie: jar.header(), host: "localhost:3000", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }) }
    expect(await getApiToken(page, config)).not.toBeNull()
  })
})

describe("a code dies with the browser session it came from", () => {
  it("signing out and revoking every other session in the browser leaves an outstanding code exchangeable", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const { verifier, challenge } = pkce()
    const code = await mintCode(config, browser, { redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256" })
    // The user notices, ends every other session, then signs out.
    await revokeOtherSessions(request("/account", { jar: browser }), config)
    const token = await csrfToken(config, browser)
    expect((await send(config, "/auth/signout", { jar: browser, form: { csrfToken: token } })).status).toBe(302)
    const late = await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })
    expect(late.status).toBe(400)
  })
})

describe("a native session is no fresher than the browser's sign-in (step-up)", () => {
  it("a legacy stored session (no createdAt) fails requireRecentSignIn in the browser, and passes it once laundered through native/token", async () => {
    const { requireRecentSignIn } = await import("@sesame/core")
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    // A session stored before Sesame recorded its start (an Auth.js migration, an older adapter).
    const adapter = config.adapter as ReturnType<typeof MemoryAdapter>
    for (const stored of adapter.tables.sessions.values()) stored.createdAt = null
    advance(60 * minute)
    expect(await requireRecentSignIn(request("/settings", { jar: browser }), config)).toMatchObject({ recent: false, reason: "SignInTooOld" })

    const { verifier, challenge } = pkce()
    const code = await mintCode(config, browser, { redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256" })
    const { sessionToken } = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { sessionToken: string }
    const asApp = request("/settings", { headers: { authorization: `Bearer ${sessionToken}` } })
    expect(await requireRecentSignIn(asApp, config), "the native session claims a sign-in that never happened now").toMatchObject({ recent: false })
  })
})

describe("a bearer header never turns a form's CSRF check off", () => {
  it("a form post without a CSRF token is let through by `Authorization: Bearer x`", async () => {
    const config = nativeConfig()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const form = { username: "alice", password: users.alice.password }
    const plain = await send(config, "/auth/callback/credentials", { jar, form })
    expect(new URL(plain.headers.get("location")!, origin).searchParams.get("error")).toBe("MissingCSRF")
    const withHeader = await send(config, "/auth/callback/credentials", { jar, form, headers: { authorization: "Bearer x" } })
    expect(new URL(withHeader.headers.get("location")!, origin).searchParams.get("error")).toBe("MissingCSRF")
  })
})

describe("a sign-in carrying a bearer header leaves the app's session alone", () => {
  it("the app is signed out, and the new session's token is never handed to anyone", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const { verifier, challenge } = pkce()
    const code = await mintCode(config, browser, { redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256" })
    const { sessionToken } = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { sessionToken: string }
    const bearer = { authorization: `Bearer ${sessionToken}` }
    const signIn = await send(config, "/auth/callback/credentials", { form: { username: "alice", password: users.alice.password }, headers: bearer })
    expect(signIn.status).toBe(302)
    const stillSignedIn = await (await send(config, "/auth/session", { headers: bearer })).json()
    // Either refuse the sign-in on a bearer request, or keep the app's session: not end it silently.
    expect(signIn.headers.get("location")?.includes("error=") || stillSignedIn !== null).toBe(true)
  })
})

describe("the verifier against the classic JWT attacks", () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const claims = () => {
    const now = Math.floor(Date.now() / 1000)
    return { sub: "1", jti: "j", iss: issuer, aud: audience, iat: now, exp: now + 900 }
  }

  it("ignores keys the token brings itself (jwk, jku, x5u) and refuses crit, other types, missing exp and near-miss issuers", async () => {
    const config = tokensConfig()
    const real = await apiToken(config)
    const kid = decodeProtectedHeader(real).kid!
    const attacker = await generateKeyPair("EdDSA", { extractable: true })
    const jwk = await exportJWK(attacker.publicKey)
    const sign = (payload: Record<string, unknown>, header: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", ...header } as never).sign(attacker.privateKey)
    expect(await verdict(await sign(claims(), { jwk }), config)).not.toBe(true)
    expect(await verdict(await sign(claims(), { jwk, kid }), config)).toBe("invalid-signature")
    expect(await verdict(await sign(claims(), { jku: "http://127.0.0.1:9/jwks", kid: "attacker" }), config)).toBe("unknown-key")
    expect(await verdict(await sign(claims(), { x5u: "http://127.0.0.1:9/cert", kid: "attacker" }), config)).toBe("unknown-key")

    const [header, payload] = real.split(".")
    const none = `${b64({ alg: "none", typ: "at+jwt", kid })}.${payload}.`
    expect(await verdict(none, config)).toBe("malformed")
    // HS256 keyed with the Ed25519 public key's bytes (x) as published.
    const published = (await keySet(config)).keys[0]!
    const { createHmac } = await import("node:crypto")
    const hsHeader = b64({ alg: "HS256", typ: "at+jwt", kid })
    for (const secret of [Buffer.from(published.x!, "base64url"), JSON.stringify(published), published.x!]) {
      const mac = createHmac("sha256", secret).update(`${hsHeader}.${payload}`).digest("base64url")
      expect(await verdict(`${hsHeader}.${payload}.${mac}`, config)).toBe("malformed")
    }
    // A valid signature over an edited header (typ changed) does not carry over.
    const retyped = `${b64({ ...JSON.parse(Buffer.from(header!, "base64url").toString()), typ: "JWT" })}.${payload}.${real.split(".")[2]}`
    expect(await verdict(retyped, config)).not.toBe(true)
  })

  it("refuses crit, missing exp, and issuer or audience near-misses on a correctly signed token", async () => {
    const pair = await generateKeyPair("EdDSA", { extractable: true })
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: "k1", alg: "EdDSA" }
    const config = tokensConfig(undefined, {}, { keys: [privateJwk] })
    const sign = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      new SignJWT(payload).setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid: "k1", ...header } as never).sign(pair.privateKey)
    expect(await verdict(await sign(claims()), config)).toBe(true)
    // jose will not sign an unknown crit: sign it by hand.
    const { KeyObject, sign: rawSign } = await import("node:crypto")
    const input = `${b64({ alg: "EdDSA", typ: "at+jwt", kid: "k1", crit: ["exp"], exp: 1 })}.${b64(claims())}`
    const critical = `${input}.${rawSign(null, Buffer.from(input), KeyObject.from(pair.privateKey)).toString("base64url")}`
    expect(await verdict(critical, config)).toBe("malformed")
    expect(await verdict(await sign({ ...claims(), exp: undefined }), config)).toBe("invalid-claims")
    expect(await verdict(await sign(claims(), { typ: "JWT" }), config)).toBe("invalid-claims")
    expect(await verdict(await sign(claims(), { typ: undefined }), config)).toBe("invalid-claims")
    for (const iss of [`${issuer}/`, `${issuer}.evil.example`, `${issuer}/../auth`, issuer.toUpperCase(), [issuer]]) {
      expect(await verdict(await sign({ ...claims(), iss }), config)).toBe("invalid-claims")
    }
    for (const aud of [`${audience}/`, `${audience}.evil.example`, [], ["https://other.example.com"]]) {
      expect(await verdict(await sign({ ...claims(), aud }), config)).toBe("invalid-claims")
    }
    expect(await verdict(await sign({ ...claims(), sub: undefined }), config)).toBe("invalid-claims")
    // An empty audience (an unset environment variable read with ??) does not turn the check off.
    await expect(verifyApiToken(await sign(claims()), { jwks: await keySet(config), issuer, audience: "" })).rejects.toMatchObject({ code: "invalid-claims" })
  })

  it("publishes no private member of a configured RSA key", async () => {
    const pair = await generateKeyPair("RS256", { extractable: true })
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: "rsa", alg: "RS256", key_ops: ["sign"] }
    const config = tokensConfig(undefined, {}, { keys: [privateJwk] })
    const [published] = (await keySet(config)).keys
    for (const member of ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "key_ops"]) expect(published).not.toHaveProperty(member)
  })

  it("keeps registered claims against the app's claims callback", async () => {
    const config = tokensConfig(undefined, {}, { claims: () => ({ iss: "https://evil.example", nbf: 0, iat: 0, jti: "fixed", typ: "JWT" }) })
    const token = await apiToken(config)
    const claims = await verifyApiToken(token, { jwks: await keySet(config), issuer, audience })
    expect(claims.iss).toBe(issuer)
    expect(claims.jti).not.toBe("fixed")
    expect(claims.iat).toBeGreaterThan(0)
    expect(decodeProtectedHeader(token).typ).toBe("at+jwt")
  })
})

describe("native redirect URIs, PKCE, codes and bearer sessions", () => {
  it("refuses near-miss redirect URIs without redirecting", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const { challenge } = pkce()
    for (const redirectUri of [
      "http://127.0.0.1:5000/callback?x=1",
      "http://127.0.0.1:5000/callback#x",
      "http://127.0.0.1:5000/callback/",
      "http://127.0.0.1:5000/CALLBACK",
      "http://127.0.0.1:5000/%63allback",
      "http://user@127.0.0.1:5000/callback",
      "http://127.0.0.1:5000@evil.example/callback",
      "http://127.0.0.1.evil.example:5000/callback",
      "http://[::ffff:127.0.0.1]:5000/callback",
      "http://localhost:5000/callback",
      "https://127.0.0.1:5000/callback",
      "com.example.app:/oauth/callback?x=1",
      "com.example.app:/oauth/callback#x",
      "COM.EXAMPLE.APP:/oauth/callback",
      "com.example.app://oauth/callback",
      "com.example.app:/oauth/callback/",
      "com.example.app:/oauth/x/../callback",
      " com.example.app:/oauth/callback",
      "com.example.app:/oauth/callback ",
      `com.example.app:/oauth/callback${"x".repeat(3000)}`,
    ]) {
      const response = await send(config, authorizePath({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" }), { jar: browser })
      expect([redirectUri, response.status]).toEqual([redirectUri, 400])
      expect(response.headers.get("location")).toBeNull()
    }
  })

  it("sends loopback spellings the WHATWG parser folds onto the configured URI only there", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const { challenge } = pkce()
    for (const redirectUri of ["http://127.1:5000/callback", "http://0x7f.0.0.1:5000/callback", "HTTP://127.0.0.1:5000/callback", "http://127.0.0.1:5000/a/../callback", "http://127.0.0.1:5000\\callback"]) {
      const params = { redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" }
      if ((await send(config, authorizePath(params), { jar: browser })).status !== 200) continue
      const token = await csrfToken(config, browser)
      const response = await send(config, "/auth/native/authorize", { jar: browser, form: { ...params, csrfToken: token } })
      const location = new URL(response.headers.get("location")!)
      expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:5000/callback")
    }
  })

  it("encodes a hostile state into the redirect, and the JSON answer", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const state = `"><script>alert(1)</script>&code=attacker#frag\r\nSet-Cookie: x=y`
    const params = { redirect_uri: appUri, code_challenge: pkce().challenge, code_challenge_method: "S256", state }
    const page = await (await send(config, authorizePath(params), { jar: browser })).text()
    expect(page).not.toContain("<script>alert(1)")
    const token = await csrfToken(config, browser)
    const response = await send(config, "/auth/native/authorize", { jar: browser, form: { ...params, csrfToken: token } })
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("state")).toBe(state)
    expect(location.searchParams.getAll("code")).toHaveLength(1)
    expect(location.hash).toBe("")
    const json = await send(config, "/auth/native/authorize", { jar: browser, form: { ...params, csrfToken: token }, headers: { "x-auth-return-redirect": "1" } })
    expect(json.headers.get("content-type")).toMatch(/json/)
  })

  it("answers bad exchanges with a 4xx, never a 500", async () => {
    const config = nativeConfig()
    const { verifier } = pkce()
    const apiLike = await apiToken(tokensConfig())
    const jwtCookie = new CookieJar()
    await signInAlice(jwtConfig(), jwtCookie)
    const bodies: Record<string, string>[] = [
      {},
      { code: "a.b.c.d.e", code_verifier: verifier, redirect_uri: appUri },
      { code: ".....", code_verifier: verifier, redirect_uri: appUri },
      { code: "x".repeat(100_000), code_verifier: verifier, redirect_uri: appUri },
      { code: apiLike, code_verifier: verifier, redirect_uri: appUri },
      { code: jwtCookie.get("sesame.session-token")!, code_verifier: verifier, redirect_uri: appUri },
      { code: "x", code_verifier: "\u0000".repeat(50), redirect_uri: appUri },
      { code: "x", code_verifier: verifier, redirect_uri: appUri, grant_type: "refresh_token" },
    ]
    for (const form of bodies) {
      const response = await exchange(config, form)
      expect([form, response.status]).toEqual([form, 400])
    }
    const json = await send(config, "/auth/native/token", { json: { code: ["a"], code_verifier: { a: 1 }, redirect_uri: 7 } })
    expect(json.status).toBeLessThan(500)
    const repeated = await send(config, "/auth/native/token", { body: "code=a&code=b&code_verifier=x&redirect_uri=y", headers: { "content-type": "application/x-www-form-urlencoded" } })
    expect(repeated.status).toBe(400)
    expect((await send(config, "/auth/native/authorize?redirect_uri=a&redirect_uri=b")).status).toBe(400)
  })

  it("a bearer read through the integration's readSession sets no session cookie, and a planted cookie beside it still wins", async () => {
    const { readSession } = await import("@sesame/core/integration")
    const config = nativeConfig({ session: { strategy: "database", updateAge: 0 } })
    const browser = await signedInBrowser(config)
    const { verifier, challenge } = pkce()
    const code = await mintCode(config, browser, { redirect_uri: appUri, code_challenge: challenge, code_challenge_method: "S256" })
    const { sessionToken } = (await (await exchange(config, { code, code_verifier: verifier, redirect_uri: appUri })).json()) as { sessionToken: string }
    const read = await readSession(config, { url: `${origin}/api/me`, headers: new Headers({ authorization: `Bearer ${sessionToken}`, host: "localhost:3000" }) })
    expect(read.session?.user?.email).toBe("alice@example.com")
    expect(read.cookies.filter((cookie) => cookie.name.includes("session-token"))).toEqual([])
    // The control: the same read with the browser's cookie re-sends it (updateAge 0).
    const byCookie = await readSession(config, { url: `${origin}/api/me`, headers: new Headers({ cookie: browser.header(), host: "localhost:3000" }) })
    expect(byCookie.cookies.filter((cookie) => cookie.name.includes("session-token"))).not.toEqual([])
    // With a cookie too, the cookie's session is the one read (and a bearer never signs a browser in).
    const both = await send(config, "/auth/session", { cookie: "sesame.session-token=planted", headers: { authorization: `Bearer ${sessionToken}` } })
    expect(await both.json()).toBeNull()
    // A bearer session cannot mint codes (it is sent to sign in), nor survive a sign-out through its own header.
    const minted = await send(config, authorizePath({ redirect_uri: appUri, code_challenge: pkce().challenge, code_challenge_method: "S256" }), { headers: { authorization: `Bearer ${sessionToken}` } })
    expect(new URL(minted.headers.get("location")!).pathname).toBe("/auth/signin")
    await send(config, "/auth/signout", { method: "POST", form: {}, headers: { authorization: `Bearer ${sessionToken}` } })
    expect(await (await send(config, "/auth/session", { headers: { authorization: `Bearer ${sessionToken}` } })).json()).toBeNull()
  })

  it("a cookie-carrying request keeps its CSRF check whatever Authorization it sends", async () => {
    const config = nativeConfig()
    const browser = await signedInBrowser(config)
    const response = await send(config, "/auth/signout", { jar: browser, form: {}, headers: { authorization: "Bearer x" } })
    expect(new URL(response.headers.get("location")!, origin).searchParams.get("error")).toBe("MissingCSRF")
    expect(await (await send(config, "/auth/session", { jar: browser })).json()).not.toBeNull()
  })
})
