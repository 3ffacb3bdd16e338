/**
 * Writing the core's cookies wherever Next.js can carry them: the `cookies()` store of a route
 * handler or server action, a proxy's response, or a pages-router `res`.
 *
 * The attributes are the core's (`http/cookies.ts` decides them all), passed on as they are. On
 * the responses this package writes itself (the guard's, a pages-router `res`) the `Set-Cookie`
 * lines are the core's serialisation too. Only the `cookies()` store of route handlers and server
 * actions has no way to take a line: it gets the core's options and serialises them itself.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName } from "@sesame/core/integration"
import { NextResponse } from "next/server.js"
import type { PagesResponse } from "./types.js"

/** The part of Next's cookie stores (`cookies()`, `NextResponse.cookies`) used here. */
export interface CookieWriter {
  set(name: string, value: string, options: ResponseCookie["options"]): unknown
}

/**
 * Sets each cookie on `store`. Returns false when the store refuses (a server component cannot set
 * cookies: the session stays valid, and the proxy or the next route handler refreshes it).
 */
export function writeCookies(store: CookieWriter, cookies: readonly ResponseCookie[]): boolean {
  try {
    for (const { name, value, options } of cookies) store.set(name, value, options)
    return true
  } catch {
    return false
  }
}

/**
 * `response` with the session cookies set, unless it sets them itself (the response's own cookie
 * wins: a refreshed cookie must not undo a sign-out's cleared one). A `NextResponse` is used
 * (copied from a plain `Response` when needed) because Next.js passes the cookies set through its
 * `cookies` to the request that renders the page: server components then read the refreshed
 * session, not the one the browser sent. What the browser receives are the core's lines.
 */
export function withCookies(response: Response, cookies: readonly ResponseCookie[]): Response {
  if (cookies.length === 0) return response
  const own = response.headers.getSetCookie()
  const ownNames = new Set(own.map(setCookieName))
  const added = cookies.filter(({ name }) => !ownNames.has(name))
  const next = response instanceof NextResponse ? response : new NextResponse(response.body, response)
  if (added.length === 0) return next
  for (const { name, value, options } of added) next.cookies.set(name, value, options)
  // Next.js rewrites every Set-Cookie line by its own rules on `cookies.set`: put back the
  // response's own lines as they were, and the core's for the session.
  next.headers.delete("set-cookie")
  for (const line of [...own, ...setCookieLines(added)]) next.headers.append("set-cookie", line)
  return next
}

/** Appends `Set-Cookie` lines (as the core serialised them) to a pages-router response. */
export function appendSetCookie(res: PagesResponse, lines: readonly string[]): void {
  if (lines.length === 0) return
  const existing = res.getHeader("set-cookie")
  const list = existing === undefined ? [] : Array.isArray(existing) ? [...(existing as readonly string[])] : [String(existing)]
  res.setHeader("set-cookie", [...list, ...lines])
}
