/**
 * API tokens through the endpoints (`GET <basePath>/token`, `GET <basePath>/jwks`) and the
 * server-side helpers: a signed-in user gets a signed JWT that `jose` and `verifyApiToken` accept
 * against the published key set; nobody else gets one; the private keys never leave the server.
 */
import { describe, expect, it, vi } from "vitest"
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose"
import type { AuthConfig, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { apiTokenKeys, getApiToken } from "@sesame/core/api-tokens"
import { verifyApiToken } from "@sesame/core/verify"
import { CookieJar, jwtConfig, origin, recordingLogger, send, signInAlice, users } from "../helpers.js"
import { storeSigningKeys } from "../../src/tokens/storage.js"

const audience = "https://api.example.com"

/** A memory adapter that knows alice, whom the credentials provider signs in. */
function adapterWithAlice() {
  const adapter = MemoryAdapter()
  const { id, name, email } = users.alice
  adapter.tables.users.set(id, { id, name, email, emailVerified: null })
  return adapter
}

function withTokens(overrides: Partial<AuthConfig> = {}, apiTokens: Partial<NonNullable<AuthConfig["apiTokens"]>> = {}): AuthConfig {
  return jwtConfig({ adapter: adapterWithAlice(), ...overrides, apiTokens: { audience, ...apiTokens } })
}

async function signedIn(config: AuthConfig): Promise<CookieJar> {
  const jar = new CookieJar()
  await signInAlice(config, jar)
  return jar
}

async function keySet(config: AuthConfig): Promise<JSONWebKeySet> {
  const response = await send(config, "/auth/jwks")
  expect(response.status).toBe(200)
  return (await response.json()) as JSONWebKeySet
}

interface Issued {
  token: string
  tokenType: string
  expiresAt: string
}

describe("GET token", () => {
  it("gives a signed-in user a short-lived token that jose verifies against the published keys", async () => {
    const config = withTokens()
    const jar = await signedIn(config)
    const response = await send(config, "/auth/token", { jar })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
    const issued = (await response.json()) as Issued
    expect(issued.tokenType).toBe("Bearer")
    const { payload, protectedHeader } = await jwtVerify(issued.token, createLocalJWKSet(await keySet(config)), {
      issuer: `${origin}/auth`,
      audience,
      typ: "at+jwt",
    })
    expect(protectedHeader.alg).toBe("EdDSA")
    expect(payload.sub).toBe("1")
    expect(payload.exp! - payload.iat!).toBe(15 * 60)
    expect(payload.nbf).toBe(payload.iat)
    expect(payload.jti).toMatch(/^[\w-]{20,}$/)
    expect(new Date(issued.expiresAt).getTime()).toBe(payload.exp! * 1000)
  })

  it("answers 401 without a session, and gives nothing to a garbled cookie", async () => {
    const config = withTokens()
    expect((await send(config, "/auth/token")).status).toBe(401)
    const forged = await send(config, "/auth/token", { cookie: "sesame.session-token=forged" })
    expect(forged.status).toBe(401)
    expect(await forged.text()).not.toMatch(/eyJ/)
  })

  it("gives nothing for a session cookie sent twice (one planted by a sibling subdomain)", async () => {
    const config = withTokens()
    const jar = await signedIn(config)
    const cookie = `${jar.header()}; sesame.session-token=planted`
    expect((await send(config, "/auth/token", { cookie })).status).toBe(401)
  })

  it("refuses a request the browser says another site made; the app's own page gets its token", async () => {
    const config = withTokens()
    const jar = await signedIn(config)
    for (const site of ["cross-site", "same-site"]) {
      const response = await send(config, "/auth/token", { jar, headers: { "sec-fetch-site": site } })
      expect(response.status).toBe(403)
      expect(await response.text()).not.toMatch(/eyJ/)
    }
    expect((await send(config, "/auth/token", { jar, headers: { "sec-fetch-site": "same-origin" } })).status).toBe(200)
  })

  it("adds the app's claims, but never lets them replace the registered ones", async () => {
    const config = withTokens({}, { claims: ({ userId, session }) => ({ role: "admin", email: session.user?.email, owner: userId, sub: "someone-else", aud: "https://evil.example", exp: 9_999_999_999 }) })
    const jar = await signedIn(config)
    const { token } = (await (await send(config, "/auth/token", { jar })).json()) as Issued
    const claims = await verifyApiToken(token, { jwks: await keySet(config), issuer: `${origin}/auth`, audience })
    expect(claims).toMatchObject({ role: "admin", email: "alice@example.com", owner: "1", sub: "1", aud: audience })
    expect(claims.exp - claims.iat).toBe(900)
  })

  it("takes the configured issuer, several audiences, a lifetime and an algorithm", async () => {
    for (const algorithm of ["ES256", "RS256"] as const) {
      const config = withTokens({}, { issuer: "https://app.example.com", audience: [audience, "https://billing.example.com"], maxAge: 60, algorithm })
      const jar = await signedIn(config)
      const { token } = (await (await send(config, "/auth/token", { jar })).json()) as Issued
      expect(decodeProtectedHeader(token).alg).toBe(algorithm)
      const claims = await verifyApiToken(token, { jwks: await keySet(config), issuer: "https://app.example.com", audience: "https://billing.example.com" })
      expect(claims.exp - claims.iat).toBe(60)
    }
  })

  it("is a 404, as the key set is, when apiTokens is not configured", async () => {
    const config = jwtConfig()
    const jar = await signedIn(config)
    expect((await send(config, "/auth/token", { jar })).status).toBe(404)
    expect((await send(config, "/auth/jwks")).status).toBe(404)
  })
})

describe("GET jwks", () => {
  it("publishes public keys only, cacheable, with kid, alg and use", async () => {
    const config = withTokens()
    const jar = await signedIn(config)
    await send(config, "/auth/token", { jar })
    const response = await send(config, "/auth/jwks")
    expect(response.headers.get("cache-control")).toBe("public, max-age=300")
    expect(response.headers.get("content-type")).toMatch(/^application\/jwk-set\+json/)
    const { keys } = (await response.json()) as JSONWebKeySet
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
    expect(Object.keys(keys[0]!)).not.toContain("d")
  })

  it("stores the private key sealed under the secret: a copy of the database holds no usable key", async () => {
    const adapter = adapterWithAlice()
    const config = withTokens({ adapter })
    const jar = await signedIn(config)
    await send(config, "/auth/token", { jar })
    const [stored] = await storeSigningKeys(adapter.store).listSigningKeys()
    expect(stored!.privateKey.split(".")).toHaveLength(5)
    expect(stored!.privateKey).not.toMatch(/"d"/)
    expect(JSON.parse(stored!.publicKey)).not.toHaveProperty("d")
  })

  it("makes its keys in memory without an adapter that stores them, and says so", async () => {
    const warn = vi.fn()
    const config = withTokens({ adapter: undefined, logger: { warn } })
    const jar = await signedIn(config)
    const { token } = (await (await send(config, "/auth/token", { jar })).json()) as Issued
    await verifyApiToken(token, { jwks: await keySet(config), issuer: `${origin}/auth`, audience })
    expect(warn).toHaveBeenCalledWith("api-token-keys-in-memory")
  })
})

describe("getApiToken and apiTokenKeys", () => {
  it("give the server a token for the request's user, and the key set for a well-known path", async () => {
    const config = withTokens()
    const jar = await signedIn(config)
    const request = { headers: new Headers({ cookie: jar.header(), host: "localhost:3000" }), url: `${origin}/dashboard` }
    const grant = await getApiToken(request, config)
    expect(grant).not.toBeNull()
    const claims = await verifyApiToken(grant!.token, { jwks: await apiTokenKeys(config), issuer: `${origin}/auth`, audience })
    expect(claims.sub).toBe("1")
    expect(await getApiToken({ headers: new Headers({ host: "localhost:3000" }), url: `${origin}/` }, config)).toBeNull()
  })

  it("say clearly when apiTokens is not configured", async () => {
    await expect(apiTokenKeys(jwtConfig())).rejects.toThrow(/apiTokens/)
  })
})

describe("configuration", () => {
  it("refuses options that cannot work, naming them", async () => {
    const cases: [Partial<NonNullable<AuthConfig["apiTokens"]>>, RegExp][] = [
      [{ audience: "" }, /apiTokens\.audience/],
      [{ maxAge: -1 }, /apiTokens\.maxAge/],
      [{ algorithm: "HS256" as never }, /apiTokens\.algorithm/],
      [{ keys: [{ kty: "OKP", crv: "Ed25519", x: "abc", kid: "k", alg: "EdDSA" }] }, /public key/],
      [{ keys: [{ kty: "OKP", crv: "Ed25519", x: "abc", d: "def", alg: "EdDSA" }] }, /kid/],
      [{ keys: [{ kty: "oct", k: "c2VjcmV0", kid: "k", alg: "HS256" }] }, /alg/],
    ]
    for (const [options, message] of cases) {
      const errors: Error[] = []
      const config = withTokens({ logger: { error: (error) => errors.push(error), warn: () => {} } }, options)
      const response = await send(config, "/auth/jwks")
      expect(response.status).toBe(500)
      expect(errors.map((error) => error.message).join("\n")).toMatch(message)
    }
  })
})

describe("plugins' claims (tokenClaims)", () => {
  const plan: SesameModule = {
    id: "plan",
    session: () => ({ tier: "pro" }),
    tokenClaims: ({ part, userId }) => ({ tier: (part as { tier: string }).tier, owner: userId, sub: "someone-else", exp: 1 }),
  }

  it("come from the plugin's part of the session; the app's claims replace them, and the registered claims always do", async () => {
    const config = withTokens({ plugins: [plan] }, { claims: () => ({ owner: "the-app" }) })
    const jar = await signedIn(config)
    const issued = (await (await send(config, "/auth/token", { jar })).json()) as Issued
    const { payload } = await jwtVerify(issued.token, createLocalJWKSet(await keySet(config)), { audience })
    expect(payload).toMatchObject({ tier: "pro", owner: "the-app", sub: users.alice.id })
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000)
  })

  it("a plugin that throws adds nothing, and the token is still issued", async () => {
    const broken: SesameModule = { id: "broken", tokenClaims: () => Promise.reject(new Error("down")) }
    const { logger, lines } = recordingLogger()
    const config = withTokens({ plugins: [broken, plan], logger })
    const jar = await signedIn(config)
    const issued = (await (await send(config, "/auth/token", { jar })).json()) as Issued
    const { payload } = await jwtVerify(issued.token, createLocalJWKSet(await keySet(config)), { audience })
    expect(payload).toMatchObject({ tier: "pro", sub: users.alice.id })
    expect(lines.join("\n")).toMatch(/EventError: Plugin "broken"'s `tokenClaims` failed/)
  })
})
