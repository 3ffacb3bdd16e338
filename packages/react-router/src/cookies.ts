/**
 * Writing Sesame's cookies on React Router's responses. Every line is the core's serialisation
 * (`withCookies`, `withMissingCookies` of `@sesame/core/integration`: in order, on a copy when the
 * headers are immutable, `Cache-Control: private, no-store`); React Router's `createCookie` is
 * never used.
 *
 * Policy:
 * 1. The middleware's session read keeps the session alive: its cookies (a JWT re-encrypted with a
 *    later expiry, a database session's new expiry, a cleared cookie that was no good) are written
 *    after the route answered, on the response React Router made (the document, a `.data`
 *    response, a resource route's, a redirect). A cookie the response already sets is left as it
 *    is: the route wrote it.
 * 2. Once an action signed in or out (`signIn`, `signOut`), its cookies are the request's last
 *    word: the middleware writes those the route's response lacks (`redirect: false`, then the
 *    action's data), and the read's cookies are no longer written at all: the read came from the
 *    request's old cookies, and its renewed session cookie would undo a sign-out (or its cleared
 *    one a sign-in).
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { withMissingCookies } from "@sesame/core/integration"
import { stateOf } from "./config.js"
import type { RouteArgs } from "./types.js"

/** Records the cookies of an action's sign-in or sign-out as the request's decision (policy 2). */
export function decide(args: RouteArgs, cookies: readonly ResponseCookie[], signsOut: boolean): void {
  const state = stateOf(args)
  if (state.decision) {
    state.decision.cookies.push(...cookies)
    state.decision.signedOut ||= signsOut
  } else {
    state.decision = { cookies: [...cookies], signedOut: signsOut }
  }
}

/** Whether an action signed out during the request: it no longer has a session. */
export function signedOut(args: RouteArgs): boolean {
  return stateOf(args).decision?.signedOut === true
}

/** The route's response with the middleware's cookies (policy 1 and 2): the decision's it lacks, else the read's it lacks. */
export function keepAlive(args: RouteArgs, response: Response, cookies: readonly ResponseCookie[]): Response {
  return withMissingCookies(response, stateOf(args).decision?.cookies ?? cookies)
}
