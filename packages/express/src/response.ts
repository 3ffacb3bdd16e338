/**
 * Writing Sesame's answers onto an Express (or Node.js) response: cookies, redirects, the guard's
 * `401` and `403`.
 *
 * Policy:
 * 1. Cookie lines are the core's serialisation (`setCookieLines`): the core decides every attribute.
 * 2. The cookies that keep a session alive (a session read's) never replace a cookie the response
 *    already sets: the first write of a request wins, and a cookie the app set itself stays.
 *    When the headers are sent already (a streamed page) they are skipped: the session stays valid
 *    until its old expiry, and the next read renews it.
 * 3. The cookies of a sign-in or sign-out replace any line for the same cookie set earlier in the
 *    request (a session a middleware just renewed is signed out, not renewed after the sign-out).
 * 4. Every answer written here depends on the visitor's cookies: `Cache-Control: private, no-store`.
 *    So does any answer a session read adds cookies to, whoever writes it: its head goes out with
 *    `Cache-Control: private, no-store`, in place of what a handler set before (a static file's
 *    `public, max-age=86400`), so that no shared cache keeps one visitor's session cookie for the
 *    next (the core's rule for the answers it writes).
 *
 * @module
 */
import type { ServerResponse } from "node:http"
import type { ResponseCookie } from "@sesame/core"
import { privateWhenSent } from "@sesame/core/node"
import { forbiddenBody, setCookieLines, setCookieName, unauthorizedBody } from "@sesame/core/integration"

/** The `Set-Cookie` lines `res` holds so far. */
function cookieLines(res: ServerResponse): string[] {
  const current = res.getHeader("set-cookie")
  if (current === undefined) return []
  return Array.isArray(current) ? current : [String(current)]
}

/** Adds the cookies of a session read to `res`, and keeps the answer private (policy 1, 2, 4). */
export function keepAlive(res: ServerResponse, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0 || res.headersSent) return
  const lines = cookieLines(res)
  const present = new Set(lines.map(setCookieName))
  const added = setCookieLines(cookies.filter(({ name }) => !present.has(name)))
  if (added.length === 0) return
  res.setHeader("Set-Cookie", [...lines, ...added])
  privateWhenSent(res)
}

/** Sets the cookies of a sign-in or sign-out on `res`, in place of earlier lines for them (policy 1, 3). */
export function replaceCookies(res: ServerResponse, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0) return
  const names = new Set(cookies.map(({ name }) => name))
  const kept = cookieLines(res).filter((line) => !names.has(setCookieName(line)))
  res.setHeader("Set-Cookie", [...kept, ...setCookieLines(cookies)])
}

/** Answers with a `303 See Other` to `location`: after a form's post, and for a page, the browser loads it with a GET. */
export function seeOther(res: ServerResponse, location: string): void {
  res.statusCode = 303
  res.setHeader("Location", location)
  res.setHeader("Cache-Control", "private, no-store")
  res.end()
}

/** The guard's answer to a client that wants JSON: `401 {"error":"Unauthorized","message":"Sign in first."}`. */
export function unauthorized(res: ServerResponse): void {
  res.statusCode = 401
  res.setHeader("Content-Type", "application/json; charset=utf-8")
  res.setHeader("Cache-Control", "private, no-store")
  res.end(JSON.stringify(unauthorizedBody))
}

/** The body of the guard's `403` to a client that wants JSON: the core's, the same in every integration. */
export { forbiddenBody }

/**
 * The guard's answer to a signed-in request its `allow` check refused: `403` with
 * {@link forbiddenBody} for a client that wants JSON, else `403` with a one-line plain-text page.
 */
export function forbidden(res: ServerResponse, json: boolean): void {
  res.statusCode = 403
  res.setHeader("Cache-Control", "private, no-store")
  if (json) {
    res.setHeader("Content-Type", "application/json; charset=utf-8")
    res.end(JSON.stringify(forbiddenBody))
  } else {
    res.setHeader("Content-Type", "text/plain; charset=utf-8")
    res.end(forbiddenBody.message)
  }
}
