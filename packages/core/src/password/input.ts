/**
 * What the password forms post, read once: the address (normalised by the provider, or null) and a
 * typed password (normalised, or null when missing or too long to be any accepted password, so
 * that nothing is hashed for it).
 *
 * @module
 */
import { normalizePassword } from "./policy.js"
import type { PasswordProvider } from "./provider.js"

/** The normalised address, or null for input that cannot be one. */
export function typedAddress(provider: PasswordProvider, value: unknown): string | null {
  if (typeof value !== "string" || value.length > 512) return null
  try {
    const email = provider.normalize(value)
    return typeof email === "string" && email.length > 0 ? email : null
  } catch {
    return null
  }
}

/** A typed password, or null when it is missing or longer than any accepted password could be (nothing is hashed for it). */
export function typedPassword(provider: PasswordProvider, value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > provider.policy.maxLength * 8) return null
  return normalizePassword(value)
}
