/**
 * Writing Sesame's cookies on Hono's response. Every line is the core's serialisation
 * (`setCookieLines`): the core decides every attribute, Hono's own cookie helper is never used.
 *
 * Policy:
 * 1. In a route (`signIn`, `signOut`, `getSession`), lines are appended with
 *    `c.header("Set-Cookie", …, { append: true })`, before the response exists: Hono puts them on
 *    the response the route makes with `c` (`c.redirect`, `c.json`, `c.html`…). Appending keeps
 *    their order, and a browser applies `Set-Cookie` lines in order.
 * 2. The session read of a middleware (`sessionMiddleware`, `requireSession`) keeps the session
 *    alive: its cookies (a JWT re-encrypted with a later expiry, a database session's new expiry, a
 *    cleared cookie that was no good) are written after the route answered, on the response it
 *    made, whatever made it (a plain `new Response(…)` too, which would drop lines written before).
 *    A cookie the response already sets is left as it is: an inner middleware or the route wrote
 *    it first.
 * 3. Once the route signed in or out (`decide`), its cookies are the request's last word: the
 *    middleware writes those the route's response dropped (a plain `new Response` after
 *    `signOut`), and the read's cookies are no longer written at all, by the middleware or by a
 *    later `getSession`: the read came from the request's old cookies, and its renewed session
 *    cookie would undo a sign-out (or its cleared one a sign-in).
 * 4. An answer that sets one of these cookies is one browser's: it says
 *    `Cache-Control: private, no-store`, the core's rule for its own answers, over whatever the
 *    route said (a public asset's `public, max-age=…`), so that no shared cache keeps it and hands
 *    the session to others. In a route, `c.header` sets it for the response made with `c`; the
 *    middleware sets it again after the route, on the response as made.
 * 5. An upgraded connection (a WebSocket's `101`) takes no cookies: its response cannot be copied.
 *
 * @module
 */
import type { ResponseCookie } from "@sesame/core"
import { setCookieLines, setCookieName } from "@sesame/core/integration"
import type { Context } from "hono"

/** What the route's `signIn` / `signOut` decided for a request (policy 3). */
interface Decision {
  /** Their cookies, in the order written. */
  readonly cookies: ResponseCookie[]
  /** Whether one of them was a sign-out. */
  signedOut: boolean
}

const decisions = new WeakMap<Context, Decision>()

/** Appends `cookies` to the response `c` will make, or has made, and keeps it private (policy 1 and 4). */
export function writeCookies(c: Context, cookies: readonly ResponseCookie[]): void {
  if (cookies.length === 0) return
  for (const line of setCookieLines(cookies)) c.header("Set-Cookie", line, { append: true })
  c.header("Cache-Control", "private, no-store")
}

/** Writes the cookies of the route's sign-in or sign-out, and records them as its decision (policy 3). */
export function decide(c: Context, cookies: readonly ResponseCookie[], signsOut: boolean): void {
  writeCookies(c, cookies)
  const decision = decisions.get(c)
  if (decision) {
    decision.cookies.push(...cookies)
    decision.signedOut ||= signsOut
  } else {
    decisions.set(c, { cookies: [...cookies], signedOut: signsOut })
  }
}

/** Whether the route signed in or out during `c`: its session read's cookies are then stale (policy 3). */
export function decided(c: Context): boolean {
  return decisions.has(c)
}

/** Whether the route signed out during `c`: the request no longer has a session. */
export function signedOut(c: Context): boolean {
  return decisions.get(c)?.signedOut === true
}

/** Writes the cookies of a middleware's session read, or the route's decision, on the route's response (policy 2 to 5). */
export function keepAlive(c: Context, cookies: readonly ResponseCookie[]): void {
  if (c.res.status === 101) return
  const ours = decisions.get(c)?.cookies ?? cookies
  const present = new Set(c.res.headers.getSetCookie().map(setCookieName))
  const missing = ours.filter(({ name }) => !present.has(name))
  writeCookies(c, missing)
  // Those the route wrote already went out with its own headers, which may have said `public`.
  if (missing.length < ours.length) c.header("Cache-Control", "private, no-store")
}
