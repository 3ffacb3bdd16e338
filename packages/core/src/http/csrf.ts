/**
 * CSRF protection: a signed double-submit token.
 *
 * The CSRF cookie holds `token|HMAC-SHA-256(secret, token)`. A form posts the token back in its
 * `csrfToken` field; a POST is accepted when the cookie's HMAC verifies under one of the secrets and
 * the posted token equals the cookie's, both compared in constant time.
 *
 * The token is read only from the body field, never from a header or query, and it is minted only
 * by the actions that render or accept forms, so a plain session read does no work for it.
 *
 * Planted cookies ("cookie tossing"). The HMAC stops an attacker from choosing a token, but not
 * from using one of his own: he fetches a valid cookie/token pair for himself, plants that cookie
 * in the victim's browser (from a sibling subdomain, which may set cookies for the parent domain,
 * or by answering a plain-http request on the victim's network), and makes the victim's browser
 * post his form with his token. The pair verifies, since nothing ties it to a browser. The layers
 * against it, each of which stops the attack on its own in the case it covers:
 *
 * 1. On https the cookie is `__Host-sesame.csrf-token` (`http/cookies.ts`): browsers only accept a
 *    `__Host-` cookie from the host itself, over https, with no Domain and Path=/, so a sibling or
 *    a network attacker cannot plant one, and a cookie planted under any other name is not read.
 * 2. A request that carries the CSRF cookie's name more than once is never verified: the browser
 *    sends both the planted cookie and the app's own (the planted one first when it has a longer
 *    Path), and the server cannot tell which is which, so it trusts neither. Such a request is
 *    treated as one without a CSRF cookie: a POST fails the check, and a form gets a new token.
 *    The planted cookie stays in the browser until it expires (the server does not know its
 *    Domain or Path to delete it), so that browser cannot post until then: a denial of service
 *    that anyone who can plant cookies can cause anyway, and the price of refusing the takeover.
 *    An app that moves its own CSRF cookie to another Domain or Path meets the same until the
 *    old cookie expires; the default cookie has neither.
 * 3. The cookie the attacker planted is all the browser has (no cookie of its own yet): the pair
 *    verifies, and what stops the forged form is the origin check (`http/origin-check.ts`), which
 *    refuses the post because the browser says it comes from another origin (`Origin`) or site
 *    (`Sec-Fetch-Site`; a sibling subdomain is same-site, and refused).
 *
 * What is left: plain http, no cookie of the browser's own, and a browser so old that it sends
 * neither `Origin` nor `Sec-Fetch-Site` on a form post. Binding the token to the session would not
 * close it (a visitor who is signing in has no session to bind to), so the answer there is https.
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
