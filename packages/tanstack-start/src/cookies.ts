/**
 * Writing Sesame's cookies on the response TanStack Start sends for the request.
 *
 * Policy:
 * 1. Cookies go through TanStack Start's own response state (`appendResponseHeader`), which it
 *    applies to whatever response the request ends with: a page, a server function's answer, a
 *    server route's, a redirect a guard or a loader throws. A later cookie of the same name, domain
 *    and path replaces an earlier one (TanStack Start merges `Set-Cookie` by that identity), so a
 *    sign-out's cleared cookie wins over the renewed one the request's read wrote first.
 * 2. A response that carries a session cookie is never cached by a shared cache:
 *    `Cache-Control: private, no-store`, set over the route's own.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines } from "@sesame/core/integration"
import { appendResponseHeader, setResponseHeader } from "@tanstack/react-start/server"

/** Writes `cookies` on the request's response, made private (policy 1 and 2); nothing when there are none. */
export function writeCookies(cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0) return
  for (const line of setCookieLines(cookies)) appendResponseHeader("set-cookie", line)
  setResponseHeader("cache-control", "private, no-store")
}
