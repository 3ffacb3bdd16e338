import { compactDecrypt, EncryptJWT, jwtDecrypt } from "jose"
import { hkdfSync } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { decode, encode, getToken } from "@sesame/core/jwt"
import { MissingSecretError } from "@sesame/core/errors"
import { backend as nodeBackend } from "../src/crypto/backend-node.js"
import { backend as webBackend } from "../src/crypto/backend-web.js"
import { derivedKey } from "../src/jwt/keys.js"
import { secret } from "./helpers.js"

const salt = "sesame.session-token"
const claims = { name: "Alice", email: "alice@example.com", picture: null, sub: "user-1" }

/** The key as the documented derivation defines it, computed independently. */
function referenceKey(s: string, saltValue: string, length = 64): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", s, saltValue, `Sesame Generated Encryption Key (${saltValue})`, length))
}

afterEach(() => {
  vi.useRealTimers()
})

describe("encode / decode", () => {
  it("round-trips claims and sets iat, exp and a fresh jti", async () => {
    const token = await encode({ token: claims, secret, salt, maxAge: 60 })
    const decoded = await decode({ token, secret, salt })
    expect(decoded).toMatchObject(claims)
    const now = Math.floor(Date.now() / 1000)
    expect(decoded!.iat).toBeGreaterThanOrEqual(now - 1)
    expect(decoded!.exp).toBe(decoded!.iat! + 60)
    const again = await decode({ token: await encode({ token: claims, secret, salt }), secret, salt })
    expect(again!.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect(again!.jti).not.toBe(decoded!.jti)
  })

  it("uses dir + A256CBC-HS512 with a kid", async () => {
    const token = await encode({ token: claims, secret, salt })
    const header = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString())
    expect(header).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: expect.any(String) })
    expect(token.split(".")).toHaveLength(5)
    expect(token.split(".")[1]).toBe("")
  })

  it("is readable by jose with the documented key derivation", async () => {
    const token = await encode({ token: claims, secret, salt })
    const { payload } = await jwtDecrypt(token, referenceKey(secret, salt), { clockTolerance: 15 })
    expect(payload).toMatchObject(claims)
  })

  it("reads tokens written by jose (A256CBC-HS512 and A256GCM)", async () => {
    const now = Math.floor(Date.now() / 1000)
    const cbc = await new EncryptJWT({ ...claims })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .encrypt(referenceKey(secret, salt))
    expect(await decode({ token: cbc, secret, salt })).toMatchObject(claims)
    const gcm = await new EncryptJWT({ ...claims })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime(now + 60)
      .encrypt(referenceKey(secret, salt, 32))
    expect(await decode({ token: gcm, secret, salt })).toMatchObject(claims)
  })

  it("decodes with any secret of a rotation list, and encodes with the first", async () => {
    const old = await encode({ token: claims, secret: "old-secret-value-0123456789", salt })
    expect(await decode({ token: old, secret: ["new-secret-value-0123456789", "old-secret-value-0123456789"], salt })).toMatchObject(claims)
    expect(await decode({ token: old, secret: "new-secret-value-0123456789", salt })).toBeNull()
    const fresh = await encode({ token: claims, secret: ["new-secret-value-0123456789", "old-secret-value-0123456789"], salt })
    expect(await decode({ token: fresh, secret: "new-secret-value-0123456789", salt })).toMatchObject(claims)
  })

  it("returns null for tampered, truncated, foreign, wrong-salt and expired tokens", async () => {
    const token = await encode({ token: claims, secret, salt, maxAge: 60 })
    const parts = token.split(".")
    const flip = (s: string) => (s[5] === "A" ? `${s.slice(0, 5)}B${s.slice(6)}` : `${s.slice(0, 5)}A${s.slice(6)}`)
    const cases = [
      "",
      "garbage",
      token.slice(0, -3),
      token.slice(0, token.length / 2),
      [parts[0], parts[1], parts[2], flip(parts[3]!), parts[4]].join("."),
      [parts[0], parts[1], flip(parts[2]!), parts[3], parts[4]].join("."),
      [parts[0], parts[1], parts[2], parts[3], flip(parts[4]!)].join("."),
      [Buffer.from('{"alg":"none"}').toString("base64url"), ...parts.slice(1)].join("."),
      `${token}.extra`,
      "a.b.c.d.e",
      "!!!.x.y.z.w",
    ]
    for (const bad of cases) expect(await decode({ token: bad, secret, salt })).toBeNull()
    expect(await decode({ token, secret: "another-secret-entirely-0123", salt })).toBeNull()
    expect(await decode({ token, secret, salt: "sesame.other-cookie" })).toBeNull()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 60_000 + 16_000)
    expect(await decode({ token, secret, salt })).toBeNull()
  })

  it("tolerates 15 seconds of clock skew on exp", async () => {
    const token = await encode({ token: claims, secret, salt, maxAge: 60 })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 70_000)
    expect(await decode({ token, secret, salt })).not.toBeNull()
  })

  it("refuses compressed or critical-extension headers even with a valid key", async () => {
    const { key, kid } = await derivedKey("A256CBC-HS512", secret, salt)
    const now = Math.floor(Date.now() / 1000)
    const plaintext = new TextEncoder().encode(JSON.stringify({ ...claims, exp: now + 60 }))
    const make = (extra: Record<string, unknown>) =>
      nodeBackend.encryptJwe(plaintext, key, { alg: "dir", enc: "A256CBC-HS512", kid, ...extra } as never)
    expect(await decode({ token: await make({}), secret, salt })).toMatchObject(claims)
    expect(await decode({ token: await make({ zip: "DEF" }), secret, salt })).toBeNull()
    expect(await decode({ token: await make({ crit: ["exp"] }), secret, salt })).toBeNull()
    expect(await decode({ token: await make({ kid: 42 }), secret, salt })).toBeNull()
    expect(await decode({ token: await make({ alg: "A256KW" }), secret, salt })).toBeNull()
    expect(await decode({ token: await make({ alg: "none" }), secret, salt })).toBeNull()
  })

  it("throws MissingSecretError only for a missing secret, never for bad tokens", async () => {
    await expect(decode({ token: "x", secret: "", salt })).rejects.toBeInstanceOf(MissingSecretError)
    await expect(encode({ token: claims, secret: [], salt })).rejects.toBeInstanceOf(MissingSecretError)
  })
})

describe("crypto backends", () => {
  it("agree: node encrypts, web (jose) decrypts, and the reverse", async () => {
    const key = referenceKey(secret, salt)
    const header = { alg: "dir" as const, enc: "A256CBC-HS512" as const, kid: "k" }
    const plaintext = new TextEncoder().encode('{"hello":"world"}')
    const fromNode = await nodeBackend.encryptJwe(plaintext, key, header)
    expect(new TextDecoder().decode((await webBackend.decryptJwe(fromNode, key, header))!)).toBe('{"hello":"world"}')
    const { plaintext: viaJose } = await compactDecrypt(fromNode, key)
    expect(new TextDecoder().decode(viaJose)).toBe('{"hello":"world"}')
    const fromWeb = await webBackend.encryptJwe(plaintext, key, header)
    expect(new TextDecoder().decode((await nodeBackend.decryptJwe(fromWeb, key, header))!)).toBe('{"hello":"world"}')

    const gcmKey = referenceKey(secret, salt, 32)
    const gcm = { alg: "dir" as const, enc: "A256GCM" as const }
    const gcmToken = await nodeBackend.encryptJwe(plaintext, gcmKey, gcm)
    expect(await webBackend.decryptJwe(gcmToken, gcmKey, gcm)).not.toBeNull()
    expect(await nodeBackend.decryptJwe(await webBackend.encryptJwe(plaintext, gcmKey, gcm), gcmKey, gcm)).not.toBeNull()
  })

  it("agree on HKDF, SHA-256 and HMAC", async () => {
    const enc = new TextEncoder()
    const args = [enc.encode("ikm"), enc.encode("salt"), enc.encode("info"), 64] as const
    const bytes = (u: Uint8Array) => [...u]
    expect(bytes(await nodeBackend.hkdf(...args))).toEqual(bytes(await webBackend.hkdf(...args)))
    expect(bytes(await nodeBackend.sha256("abc"))).toEqual(bytes(await webBackend.sha256("abc")))
    expect(bytes(await nodeBackend.hmacSha256(enc.encode("k"), "m"))).toEqual(bytes(await webBackend.hmacSha256(enc.encode("k"), "m")))
  })

  it("derives each key once and reuses it", async () => {
    const spy = vi.spyOn(nodeBackend, "hkdf")
    const s = `cache-test-secret-${Math.random()}`
    for (let i = 0; i < 5; i++) {
      const token = await encode({ token: claims, secret: s, salt })
      await decode({ token, secret: s, salt })
    }
    expect(spy).toHaveBeenCalledTimes(1)
    spy.mockRestore()
    const a = await derivedKey("A256CBC-HS512", s, salt)
    const b = await derivedKey("A256CBC-HS512", s, salt)
    expect(a).toBe(b)
  })
})

describe("getToken", () => {
  it("reads the session cookie, joined chunks, or a Bearer header", async () => {
    const token = await encode({ token: claims, secret, salt })
    const fromCookie = await getToken({ req: new Request("http://x/", { headers: { cookie: `sesame.session-token=${token}` } }), secret })
    expect(fromCookie).toMatchObject(claims)

    const half = Math.ceil(token.length / 2)
    const chunked = `sesame.session-token.1=${token.slice(half)}; sesame.session-token.0=${token.slice(0, half)}`
    expect(await getToken({ req: new Request("http://x/", { headers: { cookie: chunked } }), secret })).toMatchObject(claims)

    const bearer = await getToken({ req: new Request("http://x/", { headers: { authorization: `Bearer ${encodeURIComponent(token)}` } }), secret })
    expect(bearer).toMatchObject(claims)

    expect(await getToken({ req: new Request("http://x/", { headers: { cookie: `sesame.session-token=${token}` } }), secret, raw: true })).toBe(token)
  })

  it("uses the __Secure- cookie on https and accepts plain header objects", async () => {
    const token = await encode({ token: claims, secret, salt: "__Secure-sesame.session-token" })
    const req = { url: "https://example.com/", headers: { cookie: `__Secure-sesame.session-token=${token}` } }
    expect(await getToken({ req, secret })).toMatchObject(claims)
  })

  it("returns null without a token or with a bad one, and throws without a secret", async () => {
    expect(await getToken({ req: new Request("http://x/"), secret })).toBeNull()
    expect(await getToken({ req: new Request("http://x/", { headers: { cookie: "sesame.session-token=nope" } }), secret })).toBeNull()
    expect(await getToken({ req: new Request("http://x/", { headers: { authorization: "Bearer %E0%A4%A" } }), secret })).toBeNull()
    const saved = { a: process.env.AUTH_SECRET, s: process.env.SESAME_SECRET }
    delete process.env.AUTH_SECRET
    delete process.env.SESAME_SECRET
    try {
      await expect(getToken({ req: new Request("http://x/") })).rejects.toBeInstanceOf(MissingSecretError)
    } finally {
      if (saved.a !== undefined) process.env.AUTH_SECRET = saved.a
      if (saved.s !== undefined) process.env.SESAME_SECRET = saved.s
    }
  })
})

describe("getToken without a secret reads the environment as Auth() does (issue 18)", () => {
  const sesameSecret = "sesame-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
  const authSecret = "auth-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
  const older = "older-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
  const cookieRequest = (token: string) => new Request("http://x/", { headers: { cookie: `sesame.session-token=${token}` } })

  afterEach(() => {
    vi.unstubAllEnvs()
  })

  /** An environment with only the given secret variables set. */
  function secretEnv(vars: Record<string, string>): void {
    for (const name of ["SESAME_SECRET", "AUTH_SECRET"]) {
      for (const suffix of ["", "_1", "_2", "_3"]) vi.stubEnv(`${name}${suffix}`, undefined)
    }
    for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value)
  }

  it("with SESAME_SECRET and AUTH_SECRET both set, uses SESAME_SECRET, the documented order", async () => {
    secretEnv({ SESAME_SECRET: sesameSecret, AUTH_SECRET: authSecret })
    const bySesame = await encode({ token: claims, secret: sesameSecret, salt })
    const byAuth = await encode({ token: claims, secret: authSecret, salt })
    expect(await getToken({ req: cookieRequest(bySesame) })).toMatchObject(claims)
    expect(await getToken({ req: cookieRequest(byAuth) })).toBeNull()
  })

  it("uses AUTH_SECRET when SESAME_SECRET is not set", async () => {
    secretEnv({ AUTH_SECRET: authSecret })
    const token = await encode({ token: claims, secret: authSecret, salt })
    expect(await getToken({ req: cookieRequest(token) })).toMatchObject(claims)
  })

  it("reads a token sealed with an older rotated secret (SESAME_SECRET_1 or AUTH_SECRET_2)", async () => {
    secretEnv({ SESAME_SECRET: sesameSecret, SESAME_SECRET_1: older })
    const token = await encode({ token: claims, secret: older, salt })
    expect(await getToken({ req: cookieRequest(token) })).toMatchObject(claims)

    secretEnv({ AUTH_SECRET: authSecret, AUTH_SECRET_2: older })
    expect(await getToken({ req: cookieRequest(token) })).toMatchObject(claims)
  })

  it("throws MissingSecretError when none of those variables is set", async () => {
    secretEnv({})
    await expect(getToken({ req: cookieRequest("x") })).rejects.toBeInstanceOf(MissingSecretError)
  })
})

describe("getToken with a list of secrets", () => {
  it("reads a token sealed with an older secret of the list", async () => {
    const older = "older-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
    const token = await encode({ token: claims, secret: older, salt })
    const req = new Request("http://x/", { headers: { cookie: `sesame.session-token=${token}` } })
    expect(await getToken({ req, secret: [secret, older] })).toMatchObject(claims)
    expect(await getToken({ req, secret: [secret] })).toBeNull()
  })
})
