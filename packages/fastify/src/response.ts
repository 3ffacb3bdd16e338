/**
 * Writing Sesame's answers onto a Fastify reply: cookies, redirects, the guard's `401` and `403`.
 *
 * Policy:
 * 1. Cookie lines are the core's serialisation (`setCookieLines`): the core decides every attribute.
 *    They go through `reply.header("set-cookie", …)`, which Fastify adds up, so a cookie another
 *    plugin sets (`@fastify/cookie`) is kept beside them.
 * 2. The cookies that keep a session alive (a session read's) never replace a cookie the reply
 *    already sets: the first write of a request wins, and a cookie the app set itself stays. When
 *    the reply is sent already, they are skipped: the session stays valid until its old expiry,
 *    and the next read renews it.
 * 3. The cookies of a sign-in or sign-out replace any line for the same cookie set earlier in the
 *    request (a session a hook just renewed is signed out, not renewed after the sign-out).
 * 4. Every answer written here depends on the visitor's cookies: `Cache-Control: private, no-store`.
 *    So does any reply a session read adds cookies to, whoever sends it: its head goes out with
 *    `Cache-Control: private, no-store`, in place of what a handler or `@fastify/static` set
 *    (`public, max-age=86400`), so that no shared cache keeps one visitor's session cookie for the
 *    next (the core's rule for the answers it writes).
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { privateWhenSent } from "@sesame/core/node"
import { forbiddenBody, setCookieLines, setCookieName, unauthorizedBody } from "@sesame/core/integration"
import type { FastifyReply } from "fastify"

const privateNoStore = "private, no-store"

/** The `Set-Cookie` lines `reply` holds so far. */
function cookieLines(reply: FastifyReply): string[] {
  const current = reply.getHeader("set-cookie")
  if (current === undefined) return []
  return Array.isArray(current) ? current.map(String) : [String(current)]
}

/** Adds the cookies of a session read to `reply`, and keeps the answer private (policy 1, 2, 4). */
export function keepAlive(reply: FastifyReply, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0 || reply.sent || reply.raw.headersSent) return
  const present = new Set(cookieLines(reply).map(setCookieName))
  const added = setCookieLines(cookies.filter(({ name }) => !present.has(name)))
  if (added.length === 0) return
  reply.header("set-cookie", added)
  privateWhenSent(reply.raw)
}

/** Sets the cookies of a sign-in or sign-out on `reply`, in place of earlier lines for them (policy 1, 3). */
export function replaceCookies(reply: FastifyReply, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0) return
  const names = new Set(cookies.map(({ name }) => name))
  const kept = cookieLines(reply).filter((line) => !names.has(setCookieName(line)))
  reply.removeHeader("set-cookie")
  reply.header("set-cookie", [...kept, ...setCookieLines(cookies)])
}

/** Answers with a `303 See Other` to `location`: after a form's post, and for a page, the browser loads it with a GET. */
export function seeOther(reply: FastifyReply, location: string): void {
  reply.code(303).header("location", location).header("cache-control", privateNoStore).send()
}

/** The guard's answer to a client that wants JSON: `401 {"error":"Unauthorized","message":"Sign in first."}`. */
export function unauthorized(reply: FastifyReply): void {
  reply.code(401).header("content-type", "application/json; charset=utf-8").header("cache-control", privateNoStore).send(JSON.stringify(unauthorizedBody))
}

/** The body of the guard's `403` to a client that wants JSON: the core's, the same in every integration. */
export { forbiddenBody }

/**
 * The guard's answer to a signed-in request its `allow` check refused: `403` with
 * {@link forbiddenBody} for a client that wants JSON, else `403` with a one-line plain-text page.
 */
export function forbidden(reply: FastifyReply, json: boolean): void {
  reply.code(403).header("cache-control", privateNoStore)
  if (json) reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(forbiddenBody))
  else reply.header("content-type", "text/plain; charset=utf-8").send(forbiddenBody.message)
}
