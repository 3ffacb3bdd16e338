/**
 * `verifyApiToken` (`@sesame/core/verify`) as a resource server uses it: the app's tokens verify,
 * over HTTP against the app's key set too, and every forgery or misuse a resource server meets is
 * refused with its code: expired, not yet valid, for another audience or from another issuer,
 * `alg: none`, HS256 keyed with the public key, a key the app never published, a tampered payload,
 * a JWT of another type, and a key set that cannot be fetched.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { beforeAll, describe, expect, it } from "vitest"
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from "jose"
import type { AuthConfig } from "@sesame/core"
import { toNodeHandler } from "@sesame/core/node"
import { ApiTokenError, verifyApiToken, type VerifyApiTokenOptions } from "@sesame/core/verify"
import { CookieJar, frozenClock, jwtConfig, origin, send, signInAlice } from "../helpers.js"

const audience = "https://api.example.com"
const issuer = `${origin}/auth`
const advance = frozenClock("2026-11-25T10:00:00Z")

let privateJwk: JWK
let publicKey: CryptoKey
let config: AuthConfig

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true })
  privateJwk = { ...(await exportJWK(pair.privateKey)), kid: "app-key-1", alg: "RS256" }
  publicKey = pair.publicKey
  config = jwtConfig({ apiTokens: { audience, keys: [privateJwk] } })
})

async function appToken(): Promise<string> {
  const jar = new CookieJar()
  await signInAlice(config, jar)
  const response = await send(config, "/auth/token", { jar })
  return ((await response.json()) as { token: string }).token
}

async function options(overrides: Partial<VerifyApiTokenOptions> = {}): Promise<VerifyApiTokenOptions> {
  const jwks = await (await send(config, "/auth/jwks")).json()
  return { jwks, issuer, audience, ...overrides }
}

/** A token signed with the app's own private key, with `claims` and `header` as given. */
function signed(claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ sub: "1", jti: "j", iss: issuer, aud: audience, iat: now, exp: now + 900, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "app-key-1", typ: "at+jwt", ...header })
    .sign(privateJwk as never)
}

async function refusal(token: string, overrides: Partial<VerifyApiTokenOptions> = {}): Promise<string> {
  try {
    await verifyApiToken(token, await options(overrides))
  } catch (error) {
    expect(error).toBeInstanceOf(ApiTokenError)
    return (error as ApiTokenError).code
  }
  throw new Error("the token was accepted")
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

describe("verifyApiToken", () => {
  it("accepts the app's token, and its own forgery-free copy signed the same way", async () => {
    const claims = await verifyApiToken(await appToken(), await options())
    expect(claims).toMatchObject({ sub: "1", iss: issuer, aud: audience })
    expect(await verifyApiToken(await signed({}), await options())).toMatchObject({ sub: "1" })
  })

  it("fetches the key set over HTTP from the app, and keeps it", async () => {
    const handler = toNodeHandler(config)
    const fetched: string[] = []
    const server: Server = createServer((req, res) => {
      fetched.push(req.url ?? "")
      void handler(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const jwksUrl = `http://localhost:${port}/auth/jwks`
      const token = await appToken()
      for (let i = 0; i < 3; i++) expect((await verifyApiToken(token, { jwksUrl, issuer, audience })).sub).toBe("1")
      expect(fetched).toEqual(["/auth/jwks"])
    } finally {
      server.close()
    }
  })

  it("refuses an expired token, beyond a tolerance of 5 seconds", async () => {
    const token = await appToken()
    advance(900_000 + 4_000)
    expect((await verifyApiToken(token, await options())).sub).toBe("1")
    advance(2_000)
    expect(await refusal(token)).toBe("expired")
  })

  it("refuses a token that is not valid yet", async () => {
    const now = Math.floor(Date.now() / 1000)
    expect(await refusal(await signed({ nbf: now + 60 }))).toBe("not-yet-valid")
  })

  it("refuses a token for another audience or from another issuer", async () => {
    const token = await appToken()
    expect(await refusal(token, { audience: "https://other-api.example.com" })).toBe("invalid-claims")
    expect(await refusal(token, { issuer: "https://evil.example/auth" })).toBe("invalid-claims")
    expect(await refusal(await signed({ aud: "https://other-api.example.com" }))).toBe("invalid-claims")
  })

  it("refuses alg: none", async () => {
    const [, payload] = (await appToken()).split(".")
    const unsigned = `${b64({ alg: "none", typ: "at+jwt", kid: "app-key-1" })}.${payload}.`
    expect(await refusal(unsigned)).toBe("malformed")
  })

  it("refuses HS256 keyed with the app's public key (algorithm confusion)", async () => {
    const pem = await exportSPKI(publicKey)
    const [, payload] = (await appToken()).split(".")
    const header = b64({ alg: "HS256", typ: "at+jwt", kid: "app-key-1" })
    const { createHmac } = await import("node:crypto")
    const mac = createHmac("sha256", pem).update(`${header}.${payload}`).digest("base64url")
    expect(await refusal(`${header}.${payload}.${mac}`)).toBe("malformed")
  })

  it("refuses a token signed by a key the app never published, whatever kid it names", async () => {
    const stranger = await generateKeyPair("RS256")
    const now = Math.floor(Date.now() / 1000)
    const claims = { sub: "1", jti: "j", iss: issuer, aud: audience, iat: now, exp: now + 900 }
    const unknownKid = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "other", typ: "at+jwt" }).sign(stranger.privateKey)
    expect(await refusal(unknownKid)).toBe("unknown-key")
    const stolenKid = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "app-key-1", typ: "at+jwt" }).sign(stranger.privateKey)
    expect(await refusal(stolenKid)).toBe("invalid-signature")
  })

  it("refuses a tampered payload", async () => {
    const [header, , signature] = (await appToken()).split(".")
    const now = Math.floor(Date.now() / 1000)
    const payload = b64({ sub: "2", jti: "j", iss: issuer, aud: audience, iat: now, exp: now + 900 })
    expect(await refusal(`${header}.${payload}.${signature}`)).toBe("invalid-signature")
  })

  it("refuses a JWT of another type, or one without a subject", async () => {
    expect(await refusal(await signed({}, { typ: "JWT" }))).toBe("invalid-claims")
    expect(await refusal(await signed({ sub: undefined }))).toBe("invalid-claims")
  })

  it("says when the key set cannot be fetched", async () => {
    const token = await appToken()
    const code = await refusal(token, { jwks: undefined, jwksUrl: "http://127.0.0.1:9/auth/jwks" })
    expect(code).toBe("keys-unavailable")
  })

  it("needs an issuer and an audience", async () => {
    const token = await appToken()
    await expect(verifyApiToken(token, { ...(await options()), issuer: "" })).rejects.toThrow(TypeError)
    await expect(verifyApiToken(token, { ...(await options()), audience: [] })).rejects.toThrow(TypeError)
  })
})

