/**
 * Bearer sessions, for native apps (`nativeApps`): a request that carries no session cookie but
 * `Authorization: Bearer <session token>` is read as if the token were its session cookie, by
 * the same code (the database strategy, sign-out, session management), and nothing it answers
 * writes a session cookie back (a native app keeps its token itself; a cookie would only leave a
 * copy in whatever cookie store the client has).
 *
 * Policy:
 * - Only with `nativeApps` configured: otherwise the header is ignored, so an app that uses
 *   `Authorization` for something else keeps working.
 * - A session cookie wins over a bearer token: a browser is never signed in by a header that a
 *   script of the page could add.
 * - A bearer request needs no CSRF token: no other site can make a browser send the header (a
 *   cross-origin `fetch` with it needs a CORS preflight the endpoints never grant).
 *
 * @module
 */
import { ParsedCookies, type ResponseCookie } from "./cookies.js"
import type { HeaderReader } from "./incoming.js"

/** A session token is at most this long (`session/token.ts`); anything longer is no token. */
const maxTokenLength = 512
const bearerHeader = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(headers: HeaderReader): string | undefined {
  const value = headers.get("authorization")
  if (!value || value.length > maxTokenLength + 16) return undefined
  return bearerHeader.exec(value)?.[1]
}

/**
 * The request's cookies with the bearer token as its session cookie, when there is no session
 * cookie and bearer sessions are on; null when the request is not a bearer request.
 */
export function bearerCookies(enabled: boolean, headers: HeaderReader, cookies: ParsedCookies, sessionCookie: string): ParsedCookies | null {
  if (!enabled || cookies.has(sessionCookie)) return null
  const token = bearerToken(headers)
  if (token === undefined) return null
  const result = new ParsedCookies(cookies)
  for (const name of cookies.repeated) result.repeated.add(name)
  result.set(sessionCookie, token)
  return result
}

/** `cookies` without the session cookie (and its chunks): what a bearer request's answer may set. */
export function withoutSessionCookie(cookies: readonly ResponseCookie[], sessionCookie: string): ResponseCookie[] {
  return cookies.filter(({ name }) => name !== sessionCookie && !name.startsWith(`${sessionCookie}.`))
}
