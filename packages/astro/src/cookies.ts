/**
 * Writing Sesame's cookies on Astro's responses. Every line is the core's serialisation
 * (`setCookieLines`): the core decides every attribute; Astro's `context.cookies` is never used.
 *
 * Policy:
 * 1. The lines go on the response as the core's `withCookies` / `withMissingCookies` write them: in
 *    order, on a copy when its headers are immutable, `Cache-Control: private, no-store`, none on a
 *    WebSocket's `101`.
 * 2. The middleware's session read keeps the session alive: its cookies (a JWT re-encrypted with a
 *    later expiry, a database session's new expiry, a cleared cookie that was no good) are written
 *    after the page or endpoint answered, on the response it made. A cookie the response already
 *    sets is left as it is: the route wrote it.
 * 3. Once the route signed in or out (`signIn`, `signOut`), its cookies are the request's last
 *    word: the middleware writes those the route's response dropped (`redirect: false`, then a page
 *    rendered), and the read's cookies are no longer written at all: the read came from the
 *    request's old cookies, and its renewed session cookie would undo a sign-out (or its cleared
 *    one a sign-in).
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName, withMissingCookies } from "@sesame/core/integration"
import { stateOf } from "./config.js"
import type { AstroContext } from "./types.js"

/**
 * Writes the route's sign-in or sign-out cookies on a page's `Astro.response` when no middleware of
 * the request will write them after the page (`redirect: false` without `sessionMiddleware`): over
 * any line of the same name written earlier (a read's renewed cookie must not undo a sign-out).
 * False when there is no page response to write on (an endpoint).
 */
export function writeOnPageResponse(context: AstroContext, cookies: readonly ResponseCookie[]): boolean {
  const page = (context as { response?: { headers?: unknown } }).response
  if (!(page?.headers instanceof Headers)) return false
  if (cookies.length === 0) return true
  const names = new Set(cookies.map(({ name }) => name))
  const kept = page.headers.getSetCookie().filter((line) => !names.has(setCookieName(line)))
  page.headers.delete("set-cookie")
  for (const line of [...kept, ...setCookieLines(cookies)]) page.headers.append("set-cookie", line)
  page.headers.set("cache-control", "private, no-store")
  return true
}

/** Records the cookies of the route's sign-in or sign-out as the request's decision (policy 3). */
export function decide(context: AstroContext, cookies: readonly ResponseCookie[], signsOut: boolean): void {
  const state = stateOf(context)
  if (state.decision) {
    state.decision.cookies.push(...cookies)
    state.decision.signedOut ||= signsOut
  } else {
    state.decision = { cookies: [...cookies], signedOut: signsOut }
  }
}

/** Whether the route signed out during the request: it no longer has a session. */
export function signedOut(context: AstroContext): boolean {
  return stateOf(context).decision?.signedOut === true
}

/**
 * The route's response with the middleware's cookies (policy 1 to 3): the decision's that it
 * lacks, else the read's that it lacks.
 */
export function keepAlive(context: AstroContext, response: Response, cookies: readonly ResponseCookie[]): Response {
  return withMissingCookies(response, stateOf(context).decision?.cookies ?? cookies)
}
