/**
 * Writing Sesame's cookies on Hono's response. Every line is the core's serialisation
 * (`setCookieLines`): the core decides every attribute, Hono's own cookie helper is never used.
 *
 * Policy:
 * 1. In a route (`signIn`, `signOut`, `getSession`), lines are appended with
 *    `c.header("Set-Cookie", …, { append: true })`, before the response exists: Hono puts them on
 *    the response the route makes with `c` (`c.redirect`, `c.json`, `c.html`…). Appending keeps
 *    their order, and a browser applies `Set-Cookie` lines in order, so a later decision (a
 *    sign-out's cleared cookie) wins over an earlier one (the session read's renewed cookie).
 * 2. The session read of a middleware (`sessionMiddleware`, `requireSession`) keeps the session
 *    alive: its cookies (a JWT re-encrypted with a later expiry, a database session's new expiry, a
 *    cleared cookie that was no good) are written after the route answered, on the response it
 *    made, whatever made it (a plain `new Response(…)` too, which would drop lines written before).
 *    A cookie the response already sets is left as it is: the route decided later (it signed in or
 *    out), or an inner middleware wrote it first. (A session cookie in chunks has the same names
 *    either way: the core clears every chunk the request carried when it writes a new value.)
 * 3. An upgraded connection (a WebSocket's `101`) takes no cookies: its response cannot be copied.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName } from "@sesame/core/integration"
import type { Context } from "hono"

/** Appends `cookies` to the response `c` will make (policy 1). */
export function writeCookies(c: Context, cookies: readonly ResponseCookie[]): void {
  for (const line of setCookieLines(cookies)) c.header("Set-Cookie", line, { append: true })
}

/** Writes the cookies of a middleware's session read on the route's response (policy 2 and 3). */
export function keepAlive(c: Context, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0 || c.res.status === 101) return
  const present = new Set(c.res.headers.getSetCookie().map(setCookieName))
  writeCookies(
    c,
    cookies.filter(({ name }) => !present.has(name)),
  )
}
