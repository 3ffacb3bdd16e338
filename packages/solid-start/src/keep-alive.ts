/**
 * Keeping a session alive from the server: the cookies a session read sets (a JWT re-encrypted with
 * a later expiry, a database session's new expiry, a cleared cookie that was no good) are written
 * onto the response to the request that was read, as `@sesame/next`'s `auth()` and guard do.
 *
 * Policy:
 * 1. The lines are the core's serialisation (`setCookieLines`): the core decides every attribute.
 * 2. They go on the SolidStart event's response headers, which SolidStart sends with whatever
 *    answers the request: the page, a server function's result, a redirect thrown from one.
 * 3. `getSession` and `requireSession` take a `Request`, so they find the event through Solid's
 *    `getRequestEvent()`, and write only when that event's request is the one they read: cookies
 *    read from another request are not this visitor's.
 * 4. A cookie the response already sets is left as it is: the first write of a request wins (the
 *    middleware's, before the page reads again), and a cookie the app set itself is not undone.
 * 5. A page that has already sent its headers (a streamed page, past its shell) cannot take
 *    cookies: the write is skipped, the session stays valid until its old expiry, and the next
 *    read that can write (the middleware, a server function, the browser's own `GET session`)
 *    renews it.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName } from "@sesame/core/integration"
import { getRequestEvent } from "solid-js/web"
import type { RequestEventLike, ResponseHeadersLike } from "./event.js"

/** Appends the `Set-Cookie` lines of `cookies` that `headers` does not set yet (policy 1, 4 and 5). */
export function writeSessionCookies(headers: ResponseHeadersLike, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0) return
  const present = new Set((headers.getSetCookie?.() ?? []).flatMap((line) => (typeof line === "string" ? [setCookieName(line)] : [])))
  const lines = setCookieLines(cookies.filter(({ name }) => !present.has(name)))
  try {
    for (const line of lines) headers.append("set-cookie", line)
  } catch {
    // The headers are sent (policy 5): the session stays valid, and a later read renews it.
  }
}

/** The response headers of the SolidStart event whose request is `request`, if this code runs in one (policy 3). */
export function responseHeadersOf(request: Request): ResponseHeadersLike | undefined {
  const event = getRequestEvent() as (ReturnType<typeof getRequestEvent> & Partial<RequestEventLike>) | undefined
  return event?.request === request ? event.response?.headers : undefined
}
