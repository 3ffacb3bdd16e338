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
 * - Only for what reads or ends the session: `GET`/`POST session` (and the server functions, which
 *   read it the same way), `GET token`, `POST signout`. Every other endpoint (a sign-in, a second
 *   factor, native-app authorization) sees no session in a bearer token: a sign-in made with one
 *   would replace the app's session with a cookie it never keeps, and the CSRF exemption below
 *   must not reach a form the browser posts.
 * - A session cookie wins over a bearer token: a browser is never signed in by a header that a
 *   script of the page could add.
 * - A bearer request needs no CSRF token: no other site can make a browser send the header (a
 *   cross-origin `fetch` with it needs a CORS preflight the endpoints never grant).
 *
 * @module
 */
import { ParsedCookies, type ResponseCookie } from "./cookies.js"
import type { HeaderReader } from "./incoming.js"
import type { Action } from "./request.js"
import { maxSessionTokenLength } from "../session/token.js"

/** The endpoints a bearer token is a session for (see the module's policy). */
const bearerActions: ReadonlySet<Action> = new Set<Action>(["session", "token", "signout"])

const bearerHeader = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(headers: HeaderReader): string | undefined {
  const value = headers.get("authorization")
  // `Bearer ` and spaces aside, anything longer than a session token can be is no token.
  if (!value || value.length > maxSessionTokenLength + 16) return undefined
  return bearerHeader.exec(value)?.[1]
}

/**
 * The request's cookies with the bearer token as its session cookie, when bearer sessions are on,
 * `action` is one they serve and there is no session cookie; null when the request is not a bearer
 * request.
 */
export function bearerCookies(enabled: boolean, action: Action, headers: HeaderReader, cookies: ParsedCookies, sessionCookie: string): ParsedCookies | null {
  if (!enabled || !bearerActions.has(action) || cookies.has(sessionCookie)) return null
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
