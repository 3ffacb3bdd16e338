/**
 * Ending a session in the browser, the same for both strategies: the session cookie is deleted
 * with every chunk of it the request carried (a JWT cookie may be chunked; a database one never
 * is, but a cookie left by the other strategy, before a configuration change, may be).
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { clearChunkedCookie } from "../http/cookies.js"
import { clearStartCookie } from "./start-cookie.js"

/** Queues the deletion of the request's session cookie, chunks included, and of the start cookie beside it. */
export function clearSessionCookie(ctx: RequestContext): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.setCookies.push(...clearChunkedCookie(name, options, ctx.cookies))
  clearStartCookie(ctx)
}
