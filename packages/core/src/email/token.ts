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
import { oneTimeHash } from "../adapters/one-time-tokens.js"
import { randomToken } from "../crypto/encoding.js"

/** 32 random bytes, base64url: the default `generateVerificationToken`. */
export function defaultVerificationToken(): string {
  return randomToken(32)
}

/** The purpose under which email tokens are hashed (`adapters/one-time-tokens.ts`). */
export const emailTokenPurpose = "sesame-email-token"

/** The value stored as `VerificationToken.token`. */
export function hashVerificationToken(token: string, secret: string): Promise<string> {
  return oneTimeHash(emailTokenPurpose, token, secret)
}
