/**
 * JWT session tokens read recently, with their claims, so that the next read of the same cookie
 * costs no decryption.
 *
 * Now that a read re-issues a token only once per `updateAge`, a browser sends the same token for
 * hours, and every page, API call and session poll decrypted it again. A token is an authenticated
 * ciphertext: the same string always decrypts to the same claims under the same secrets, so its
 * claims can be kept against the string. What stays per read: the `exp`/`nbf` checks (made again
 * on every hit, so an expired token is never served from here), the `email_unverified` lookup,
 * the `jwt` and `session` callbacks. Kept per configuration (its secrets and decoder) and cookie
 * name (the key's salt: a token minted for one cookie is not one for another), only for the
 * built-in decoder (a custom one may consult a denylist on every call), as JSON text (each read
 * gets its own object, whatever a callback does to it), at most {@link maxEntries} per configuration,
 * oldest out first. Only tokens that decrypted are kept, so nobody can fill it without signing in.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { claimsFromText } from "../jwt/claims.js"
import type { JWT } from "../jwt/index.js"

const maxEntries = 1000

interface Entry {
  /** The claims as they decrypted, as JSON. */
  text: string
  /** Made under an older secret of the rotation list (see `decodeCookie`). */
  stale: boolean
}

const recent = new WeakMap<ResolvedConfig, Map<string, Map<string, Entry>>>()

function tokensOf(config: ResolvedConfig, cookie: string): Map<string, Entry> {
  let byCookie = recent.get(config)
  if (!byCookie) recent.set(config, (byCookie = new Map()))
  let tokens = byCookie.get(cookie)
  if (!tokens) byCookie.set(cookie, (tokens = new Map()))
  return tokens
}

/** The claims of `token`, read recently from the cookie `cookie`, if they are still usable now. */
export function recentClaims(config: ResolvedConfig, cookie: string, token: string): { token: JWT; stale: boolean } | undefined {
  const tokens = recent.get(config)?.get(cookie)
  const entry = tokens?.get(token)
  if (!entry) return undefined
  const claims = claimsFromText(entry.text)
  if (!claims) {
    tokens!.delete(token)
    return undefined
  }
  return { token: claims, stale: entry.stale }
}

/** Keeps the claims `token` (from the cookie `cookie`) decrypted to, before anything can change them. */
export function rememberClaims(config: ResolvedConfig, cookie: string, token: string, claims: JWT, stale: boolean): void {
  const tokens = tokensOf(config, cookie)
  if (tokens.size >= maxEntries) tokens.delete(tokens.keys().next().value as string)
  tokens.set(token, { text: JSON.stringify(claims), stale })
}
