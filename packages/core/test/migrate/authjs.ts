/**
 * What an Auth.js v5 app left behind, made here as Auth.js makes it (without `@auth/core`, from the
 * reference: docs `authjs-v5-behaviour.md` §3, §5 and §8): its JWT session cookie, its database
 * session rows and its email sign-in records.
 */
import { createHash, randomUUID } from "node:crypto"
import { base64url, calculateJwkThumbprint, EncryptJWT, type JWTPayload } from "jose"

/** Auth.js's session cookie name: `__Secure-` on https. */
export function authjsCookieName(secure = false): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`
}

/** HKDF-SHA-256(ikm = secret, salt, info = `Auth.js Generated Encryption Key (<salt>)`), 64 bytes: Auth.js's key, with WebCrypto. */
async function authjsKey(secret: string, salt: string): Promise<Uint8Array> {
  const encoder = new TextEncoder()
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`) },
    ikm,
    64 * 8,
  )
  return new Uint8Array(bits)
}

export interface AuthjsTokenOptions {
  secret: string
  /** The cookie name (Auth.js's salt). Default `authjs.session-token`. */
  salt?: string
  /** Seconds. Default 30 days. */
  maxAge?: number
  /** When it was encoded (ms). Default now. */
  issuedAt?: number
}

/** Auth.js's `encode`: `{ alg: "dir", enc: "A256CBC-HS512", kid }` (the SHA-512 JWK thumbprint), `iat`, `exp`, `jti`. */
export async function authjsToken(claims: JWTPayload, { secret, salt = authjsCookieName(), maxAge = 30 * 86_400, issuedAt = Date.now() }: AuthjsTokenOptions): Promise<string> {
  const key = await authjsKey(secret, salt)
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
  const iat = Math.floor(issuedAt / 1000)
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
    .setIssuedAt(iat)
    .setExpirationTime(iat + maxAge)
    .setJti(randomUUID())
    .encrypt(key)
}

/** Auth.js's session cookie for `value`: one cookie, or chunks `.0`, `.1`, … of 3936 characters. */
export function authjsCookies(value: string, name = authjsCookieName()): [string, string][] {
  const size = 4096 - 160
  if (value.length <= size) return [[name, value]]
  const chunks: [string, string][] = []
  for (let i = 0; i * size < value.length; i++) chunks.push([`${name}.${i}`, value.slice(i * size, (i + 1) * size)])
  return chunks
}

/** The `token` Auth.js stored for an email link's token: sha256hex(token + secret), the secret as a template literal writes it. */
export function authjsLinkHash(token: string, secret: string | string[]): string {
  return createHash("sha256").update(`${token}${secret}`).digest("hex")
}

/** An email token as Auth.js made it by default: `randomString(32)`, 64 hex digits. */
export function authjsLinkToken(): string {
  return createHash("sha256").update(randomUUID()).digest("hex")
}
