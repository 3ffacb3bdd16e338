/**
 * TOTP (RFC 6238) as authenticator apps compute it: HMAC-SHA-1, 6 digits, 30-second steps, on
 * `@oslojs/otp`. What this module adds is the step a code belongs to: a code is good for the
 * current step or one step either side (clock drift), and knowing which step matched is what lets
 * `challenge.ts` accept each code once.
 *
 * @module
 */
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp"
import { defaultTwoFactor } from "./defaults.js"
import { randomBytes } from "../crypto/encoding.js"
import { timingSafeEqual } from "../crypto/timing.js"

const { digits, period, drift } = defaultTwoFactor

/** A new secret: 20 random bytes (160 bits, the HMAC-SHA-1 key size RFC 4226 recommends). */
export function newTotpKey(): Uint8Array {
  return randomBytes(20)
}

/** The step `time` (ms) falls in. */
export function totpStep(time = Date.now()): number {
  return Math.floor(time / 1000 / period)
}

/** The code of `step`. */
export function totpCode(key: Uint8Array, step: number): string {
  return generateHOTP(key, BigInt(step), digits)
}

/**
 * The step whose code `code` is, among the current step and `drift` steps either side, or null.
 * Every candidate is compared, in constant time, whatever matched first.
 */
export function matchingStep(key: Uint8Array, code: string, time = Date.now()): number | null {
  const typed = code.replace(/[\s-]/g, "")
  if (!new RegExp(`^\\d{${digits}}$`).test(typed)) return null
  const now = totpStep(time)
  let matched: number | null = null
  for (let step = now - drift; step <= now + drift; step++) {
    if (timingSafeEqual(totpCode(key, step), typed) && matched === null) matched = step
  }
  return matched
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(issuer: string, accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(issuer, accountName, key, period, digits)
}
