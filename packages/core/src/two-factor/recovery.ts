/**
 * Recovery codes: ten single-use codes shown once when the second factor is turned on (and when
 * the user makes new ones), for the day the phone is lost. Each is 10 base32 characters (50 bits)
 * shown as `xxxxx-xxxxx`; only an HMAC of it, keyed with the app's secret, is stored, so a copy of
 * the database alone cannot be searched for them. Typed codes are forgiving: case, spaces and
 * dashes do not matter.
 *
 * @module
 */
import { backend } from "#crypto"
import { encodeBase32NoPadding } from "@oslojs/encoding"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { defaultTwoFactor } from "./defaults.js"
import { encoder, randomBytes, toHex } from "../crypto/encoding.js"
import { replaceRecoveryCodes, takeRecoveryCode } from "./storage.js"

/** A new set of codes, as shown to the user. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: defaultTwoFactor.recoveryCodes }, () => {
    const code = encodeBase32NoPadding(randomBytes(7)).slice(0, 10).toLowerCase()
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
}

/** The code as typed, reduced to what counts; null when it cannot be one. */
function normalised(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, "").toLowerCase()
  return /^[a-z2-7]{10}$/.test(code) ? code : null
}

async function hashOf(code: string, secret: string): Promise<string> {
  return toHex(await backend.hmacSha256(encoder.encode(secret), `sesame-recovery-code:${code}`))
}

/** Stores `codes` (their hashes) as the user's only recovery codes. */
export async function storeRecoveryCodes(adapter: CheckedAdapter, secrets: readonly string[], userId: string, codes: string[]): Promise<void> {
  const hashes = await Promise.all(codes.map((code) => hashOf(normalised(code)!, secrets[0]!)))
  await replaceRecoveryCodes(adapter, userId, hashes)
}

/**
 * Uses the user's recovery code `typed`: true when it was one of theirs, which it no longer is.
 * Tried with each secret, so that codes made before a rotation still work.
 */
export async function useRecoveryCode(adapter: CheckedAdapter, secrets: readonly string[], userId: string, typed: string): Promise<boolean> {
  const code = normalised(typed)
  if (!code) return false
  for (const secret of secrets) {
    if (await takeRecoveryCode(adapter, userId, await hashOf(code, secret))) return true
  }
  return false
}
