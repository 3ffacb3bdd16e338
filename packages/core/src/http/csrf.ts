/**
 * CSRF protection: a signed double-submit token.
 *
 * The CSRF cookie holds `token|HMAC-SHA-256(secret, token)`. A form posts the token back in its
 * `csrfToken` field; a POST is accepted when the cookie's HMAC verifies under one of the secrets and
 * the posted token equals the cookie's, both compared in constant time. The HMAC means an attacker
 * who can plant a cookie (a sibling subdomain, say) still cannot choose a token; the `__Host-`
 * prefix on https stops the planting in the first place.
 *
 * The token is read only from the body field, never from a header or query, and it is minted only
 * by the actions that render or accept forms, so a plain session read does no work for it.
 *
 * @module
 */
import { backend } from "#crypto"
import { encoder, randomHex, toHex } from "../crypto/encoding.js"
import { timingSafeEqual } from "../crypto/timing.js"
import type { CookieOption, ResponseCookie } from "./cookies.js"

export interface CsrfState {
  /** The token to put in forms. */
  token: string
  /** Whether this POST carried the cookie's token. */
  verified: boolean
  /** A new CSRF cookie to set, when the request had no valid one. */
  cookie?: ResponseCookie
}

async function sign(secret: string, token: string): Promise<string> {
  return toHex(await backend.hmacSha256(encoder.encode(secret), `sesame-csrf:${token}`))
}

const tokenPattern = /^[0-9a-f]{64}$/

async function tokenFromCookie(value: string | undefined, secrets: readonly string[]): Promise<string | null> {
  if (!value) return null
  const bar = value.indexOf("|")
  if (bar === -1) return null
  const token = value.slice(0, bar)
  const mac = value.slice(bar + 1)
  if (!tokenPattern.test(token) || !tokenPattern.test(mac)) return null
  for (const secret of secrets) {
    if (timingSafeEqual(mac, await sign(secret, token))) return token
  }
  return null
}

/**
 * The CSRF state of a request: reuses a valid cookie, or mints a token and the cookie to set.
 * `posted` is the body's `csrfToken` for a POST, undefined otherwise.
 */
export async function csrfState(
  cookieValue: string | undefined,
  posted: unknown,
  secrets: readonly string[],
  cookie: CookieOption,
): Promise<CsrfState> {
  const existing = await tokenFromCookie(cookieValue, secrets)
  if (existing) {
    return { token: existing, verified: typeof posted === "string" && timingSafeEqual(posted, existing) }
  }
  const token = randomHex(32)
  const value = `${token}|${await sign(secrets[0]!, token)}`
  return { token, verified: false, cookie: { name: cookie.name, value, options: cookie.options } }
}
