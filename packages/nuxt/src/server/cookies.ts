/**
 * Writing Sesame's cookies on an h3 event's response. Every line is the core's serialisation
 * (`setCookieLines`): the core decides every attribute; h3's `setCookie` is never used.
 *
 * Policy:
 * 1. h3's middleware cannot wrap the route, so the session middleware writes its read's cookies (a
 *    renewed JWT, a database session's new expiry, a cleared cookie that was no good) on the
 *    event's response before the route runs; they go out with whatever the route answers (h3 adds
 *    a returned `Response`'s own lines after them).
 * 2. A route's sign-in or sign-out is the request's last word: its cookies replace the lines of the
 *    same names written earlier in the request (a renewed session cookie must not undo a
 *    sign-out), whether they go on the event's response (`redirect: false`) or on the `Response`
 *    the route returns.
 * 3. A response that sets one of these cookies is one browser's: `Cache-Control: private, no-store`,
 *    so that no shared cache keeps it and hands the session to others. The route may still set its
 *    own `Cache-Control` after the middleware (a returned `Response`'s headers are set over the
 *    event's), so the header is settled when the response's head is written.
 * 4. Nothing is written once the response's headers went out.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName } from "@sesame/core/integration"
import type { Event } from "./types.js"

/** The `Set-Cookie` lines the event's response carries so far. */
function linesOf(event: Event): string[] {
  const value = event.node.res.getHeader("set-cookie")
  return value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]
}

/** Removes the lines of `names` from the event's response (policy 2). */
export function dropCookies(event: Event, names: ReadonlySet<string>): void {
  const res = event.node.res
  if (res.headersSent || names.size === 0) return
  const kept = linesOf(event).filter((line) => !names.has(setCookieName(line)))
  if (kept.length === 0) res.removeHeader("set-cookie")
  else res.setHeader("set-cookie", kept)
}

/** The names of the cookies written on each response, for its head (policy 3). */
const written = new WeakMap<Event["node"]["res"], Set<string>>()

/**
 * Makes the response private when its head is written, if it still sets one of the cookies written
 * here (policy 3). Node.js writes every head through `writeHead`, an implicit one too.
 */
function privateWhenWritten(res: Event["node"]["res"], names: readonly string[]): void {
  let ours = written.get(res)
  if (!ours) {
    ours = new Set()
    written.set(res, ours)
    const sesameNames = ours
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => unknown
    res.writeHead = ((...args: unknown[]) => {
      const lines = res.getHeader("set-cookie")
      const list = lines === undefined ? [] : Array.isArray(lines) ? lines.map(String) : [String(lines)]
      if (list.some((line) => sesameNames.has(setCookieName(line)))) {
        res.setHeader("cache-control", "private, no-store")
        // Headers given to writeHead itself win over setHeader's: settle them there too.
        for (const arg of args) if (typeof arg === "object" && arg !== null && !Array.isArray(arg)) for (const key of Object.keys(arg)) if (key.toLowerCase() === "cache-control") (arg as Record<string, unknown>)[key] = "private, no-store"
      }
      return writeHead(...args)
    }) as typeof res.writeHead
  }
  for (const name of names) ours.add(name)
}

/** Writes `cookies` on the event's response (policy 1 to 4); with `replace`, over the lines of the same names. */
export function writeCookies(event: Event, cookies: readonly ResponseCookie[], replace: boolean): void {
  const res = event.node.res
  if (res.headersSent || cookies.length === 0) return
  if (replace) dropCookies(event, new Set(cookies.map(({ name }) => name)))
  res.setHeader("set-cookie", [...linesOf(event), ...setCookieLines(cookies)])
  res.setHeader("cache-control", "private, no-store")
  privateWhenWritten(res, cookies.map(({ name }) => name))
}
