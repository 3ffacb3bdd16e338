/**
 * Writing the core's cookies wherever Next.js can carry them: the `cookies()` store of a route
 * handler or server action, a proxy's response, or a pages-router `res`.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
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
 * `response` with the session cookies set, unless it sets them itself. A `NextResponse` is used
 * (copied from a plain `Response` when needed) because Next.js passes the cookies it sets on to the
 * request that renders the page: server components then read the refreshed session, not the one
 * the browser sent.
 */
export function withCookies(response: Response, cookies: readonly ResponseCookie[]): Response {
  if (cookies.length === 0) return response
  const next = response instanceof NextResponse ? response : new NextResponse(response.body, response)
  writeCookies(
    { set: (name, value, options) => (next.cookies.get(name) ? undefined : next.cookies.set(name, value, options)) },
    cookies,
  )
  return next
}

/** Appends `Set-Cookie` lines (as the core serialised them) to a pages-router response. */
export function appendSetCookie(res: PagesResponse, lines: readonly string[]): void {
  if (lines.length === 0) return
  const existing = res.getHeader("set-cookie")
  const list = existing === undefined ? [] : Array.isArray(existing) ? [...(existing as readonly string[])] : [String(existing)]
  res.setHeader("set-cookie", [...list, ...lines])
}
