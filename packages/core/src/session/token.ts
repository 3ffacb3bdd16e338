/**
 * Database session tokens.
 *
 * The cookie carries a random token (256 bits by default); the adapter only ever sees its SHA-256.
 * A copy of the sessions table therefore holds nothing a browser could present: the cookie value
 * is a preimage of the stored hash. Looking a session up by the hash also removes the timing
 * side channel of comparing secrets in a database index: an attacker who learns how much of a hash
 * matched learns nothing about any token.
 *
 * @module
 */
import { backend } from "#crypto"
import { base64url, toHex } from "../crypto/encoding.js"

/** Tokens longer than this are not ours; they are rejected before hashing. */
export const maxSessionTokenLength = 512

/** The value stored as `sessionToken`: SHA-256 of the cookie's token, hex. */
export async function hashSessionToken(token: string): Promise<string> {
  return toHex(await backend.sha256(token))
}

/**
 * A public identifier of a stored session, for session lists: derived from the stored hash, so it
 * reveals neither the token nor the hash.
 */
export async function publicSessionId(storedHash: string): Promise<string> {
  return base64url(await backend.sha256(`sesame-session-id:${storedHash}`)).slice(0, 22)
}
