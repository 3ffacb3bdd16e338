/**
 * Email sign-in tokens.
 *
 * The link carries 32 random bytes (256 bits). The adapter only ever sees HMAC-SHA-256 of the token
 * keyed with the secret, so a copy of the verification-token table holds nothing that signs anyone
 * in, and an attacker who can write to it still cannot forge a link without the secret. Looking a
 * token up by its hash also means a database index never compares secrets.
 *
 * @module
 */
import { backend } from "#crypto"
import { encoder, randomToken, toHex } from "../crypto/encoding.js"

/** 32 random bytes, base64url: the default `generateVerificationToken`. */
export function defaultVerificationToken(): string {
  return randomToken(32)
}

/** The value stored as `VerificationToken.token`. */
export async function hashVerificationToken(token: string, secret: string): Promise<string> {
  return toHex(await backend.hmacSha256(encoder.encode(secret), `sesame-email-token:${token}`))
}
