/**
 * The claims of a decrypted session token, and the time checks every read makes of them.
 *
 * @module
 */
import type { JWT } from "./index.js"

/** Seconds of clock skew tolerated when checking `exp` and `nbf`. */
export const clockTolerance = 15

/** The claims in `text` (a token's decrypted JSON) when they are an object usable now (`exp`, `nbf`); else null. */
export function claimsFromText(text: string): JWT | null {
  let claims: unknown
  try {
    claims = JSON.parse(text)
  } catch {
    return null
  }
  if (!claims || typeof claims !== "object" || Array.isArray(claims)) return null
  const { exp, nbf } = claims as Record<string, unknown>
  const now = Date.now() / 1000
  if (exp !== undefined && (typeof exp !== "number" || exp <= now - clockTolerance)) return null
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + clockTolerance)) return null
  return claims as JWT
}
