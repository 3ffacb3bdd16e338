/**
 * One-time values remembered through the adapter's verification tokens: email sign-in tokens and
 * passkey challenges.
 *
 * The adapter only ever sees HMAC-SHA-256 of the value keyed with the secret (and a purpose, so a
 * value of one kind never matches a record of another): a copy of the table holds nothing usable,
 * and whoever can write to it cannot forge a record without the secret. A value is used with
 * `useVerificationToken`, which returns and deletes in one step, so of two concurrent uses exactly
 * one finds it. With secrets being rotated, the hash under each secret is tried in turn, so that a
 * value issued before the rotation still works.
 *
 * @module
 */
import { backend } from "#crypto"
import { encoder, toHex } from "../crypto/encoding.js"
import type { VerificationToken } from "./types.js"
import type { CheckedAdapter } from "./wrap.js"

/** The `token` stored for `value`: HMAC-SHA-256 of `purpose:value` keyed with `secret`, hex. */
export async function oneTimeHash(purpose: string, value: string, secret: string): Promise<string> {
  return toHex(await backend.hmacSha256(encoder.encode(secret), `${purpose}:${value}`))
}

/** Uses (and so deletes) the record of `value` under `identifier`, trying each secret; null when none. */
export async function useOneTime(
  adapter: CheckedAdapter,
  identifier: string,
  purpose: string,
  value: string,
  secrets: readonly string[],
): Promise<VerificationToken | null> {
  for (const secret of secrets) {
    const stored = await adapter.useVerificationToken({ identifier, token: await oneTimeHash(purpose, value, secret) })
    if (stored) return stored
  }
  return null
}

/** Whether a used record had not expired. An adapter that serialises dates may hand back a string; anything unreadable counts as expired. */
export function stillValid(stored: VerificationToken, now = Date.now()): boolean {
  return new Date(stored.expires).getTime() > now
}
