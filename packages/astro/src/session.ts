/**
 * The session of a request: `sessionMiddleware` (`Astro.locals.session` for every page and
 * endpoint) and `getSession(context)` for code that reads it itself.
 *
 * The session is read by the core's `readSession`, through the core's own `session` endpoint under
 * the base path, with the request's cookies and the headers the origin comes from: exactly what
 * the browser gets from `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database
 * session is looked up and extended).
 *
 * Policy:
 * 1. One read per request and configuration, whoever asks (the middleware, a guard, `getSession`),
 *    kept on the request's `locals` (config.ts, policy 4).
 * 2. Fail closed: a read that throws (a configuration the core cannot use, an adapter that fails)
 *    is logged through the configured logger and is a signed-out visitor: no session, no cookie.
 *    Except a storage outage (`StorageUnavailable`): nothing is known of the session then, and
 *    "signed out" would send every signed-in user to the sign-in page. The read rejects with it,
 *    unlogged (the core logs an outage when it begins and when it ends): the middleware answers
 *    the core's `503` (`unavailable.ts`), `getSession` throws it. No cookie is set or cleared.
 * 3. The session stays alive: the middleware writes the read's cookies on the response
 *    (`cookies.ts`).
 * 4. The auth routes under the base path are not read: the endpoint answers for itself, and a
 *    renewed cookie written beside a sign-out's cleared one could undo it.
 * 5. A prerendered page is rendered at build time, for no visitor: it is not read (there are no
 *    request cookies then), and `locals.session` is `null`.
 * 6. Once the route signed out (`signOut(context)`), the request has no session: `locals.session`
 *    is `null`, a later `getSession` or `requireSession` answers as for a signed-out visitor, and
 *    no cookie of the read is written (`cookies.ts`, policy 3). After `signIn(context)`, the read
 *    still describes the request as it came: the new session is the next request's.
 *
 * @module
 */
import type { AuthConfig, Session } from "@sesame/core"
import { isStorageUnavailable, isUnderPath, noSession, readSessionOrNone, setCookieLines, type SessionRead } from "@sesame/core/integration"
import { configFor, prepare, stateOf, use, type Prepared, type Read } from "./config.js"
import { keepAlive, signedOut } from "./cookies.js"
import type { AstroContext, SesameLocals } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * Astro's `next()` of a middleware: renders the page or endpoint.
 *
 * @example
 * ```ts
 * const timing: SesameMiddleware = async (context, next: Next) => next()
 * ```
 */
export type Next = () => Promise<Response>

/**
 * An Astro middleware (`onRequest`), of the context Astro gives it; `sequence` from
 * `astro:middleware` takes it as it is.
 *
 * @example
 * ```ts
 * const middleware: SesameMiddleware = sessionMiddleware(authConfig)
 * export const onRequest = sequence(middleware)
 * ```
 */
export type SesameMiddleware = (context: AstroContext, next: Next) => Promise<Response>

/**
 * The session read of `context` for `prepared`, made once (policy 1 and 2); none after a sign-out
 * (policy 6). A storage outage rejects with its `StorageUnavailable` (policy 2).
 */
export function readOf(context: AstroContext, prepared: Prepared, owner: string): Read {
  if (signedOut(context)) return { result: Promise.resolve(noSession), written: true }
  const { reads } = stateOf(context)
  let read = reads.get(prepared)
  if (!read) {
    read = { result: readSessionOrNone(prepared.config, { headers: context.request.headers, url: context.request.url }, owner), written: false }
    reads.set(prepared, read)
  }
  return read
}

/** `context.locals` as this package writes it. */
export function localsOf(context: AstroContext): SesameLocals {
  return context.locals as SesameLocals
}

/** What a middleware does with the request's session read, once the auth routes and prerendered pages are let through. */
type WithRead = (context: AstroContext, next: Next, read: SessionRead, prepared: Prepared) => Promise<Response>

/**
 * The start every middleware of this package shares: the configuration checked when it is made and
 * remembered for the request, the auth routes and prerendered pages passed through (policy 4 and
 * 5), `skip` too (paths a guard does not protect), then `handle` with the request's one session
 * read, or the core's `503` during an outage.
 */
export function readingMiddleware(config: AuthConfig, owner: string, handle: WithRead, skip?: (context: AstroContext) => boolean): SesameMiddleware {
  const prepared = prepare(config, owner)
  return async (context, next) => {
    use(context, prepared)
    if (isUnderPath(new URL(context.request.url).pathname, prepared.basePath)) return next()
    if (context.isPrerendered === true) {
      localsOf(context).session ??= null
      return next()
    }
    if (skip?.(context)) return next()
    let read: SessionRead
    try {
      read = await readOf(context, prepared, owner).result
    } catch (error) {
      // Only an outage rejects (policy 2): the core's 503, never the page as signed in or out.
      if (isStorageUnavailable(error)) return unavailableResponse(context, prepared, error)
      throw error
    }
    // This middleware writes the read's cookies after the page (not the page's `getSession`).
    stateOf(context).kept.add(prepared)
    return handle(context, next, read, prepared)
  }
}

/**
 * Writes the read's cookies (or the route's sign-in or sign-out's) on the response `next()` gives,
 * once per read, and sets `locals.session` to `null` once the route signed out (policy 3 and 6).
 */
export async function continueWith(context: AstroContext, next: Next, prepared: Prepared, cookies: SessionRead["cookies"]): Promise<Response> {
  const response = await next()
  const state = stateOf(context)
  if (state.decision?.signedOut) localsOf(context).session = null
  const read = state.reads.get(prepared)
  if (read?.written && !state.decision) return response
  if (read) read.written = true
  return keepAlive(context, response, cookies)
}

/**
 * The middleware that reads the session of every request it runs for and sets it as
 * `Astro.locals.session` (the session, or `null`), keeping it alive: the cookies the read sets (a
 * renewed JWT, a database session's new expiry, a cleared cookie that was no good) are written on
 * the page's or endpoint's response, made `Cache-Control: private, no-store`. It also gives
 * `getSession`, `requireSession`, `signIn`, `signOut` and `api` the configuration, and writes the
 * cookies of a `signIn` / `signOut` that did not redirect.
 *
 * The auth endpoint under the base path is passed through without a read; a prerendered page gets
 * `locals.session = null` without one (there is no visitor at build time). While the storage
 * cannot be reached, every request it reads answers the core's `503` "Try again in a moment" page
 * (JSON for a client that wants JSON) with `Retry-After`, never as signed in or out.
 *
 * @param config - the configuration; one that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * // src/middleware.ts
 * import { sequence } from "astro:middleware"
 * import { authorize, sessionMiddleware } from "@sesame/astro"
 * import { authConfig } from "./auth"
 *
 * export const onRequest = sequence(sessionMiddleware(authConfig), authorize(authConfig, { protect: ["/dashboard"] }))
 * ```
 */
export function sessionMiddleware(config: AuthConfig): SesameMiddleware {
  return readingMiddleware(config, "sessionMiddleware", async (context, next, { session, cookies }, prepared) => {
    localsOf(context).session = session
    return continueWith(context, next, prepared, cookies)
  })
}

/**
 * The session of the request, or `null` when there is none, it cannot be read (logged), the page
 * is prerendered, or the route signed out (`signOut(context, …)`) earlier in the request.
 *
 * Read once per request: after `sessionMiddleware` this is its read, whose cookies the middleware
 * writes. Given a configuration and called without the middleware, it reads itself; its cookies
 * then go on a page's response (`Astro.response`), not on an endpoint's, whose response Sesame
 * does not see: add the middleware to keep the session alive there.
 *
 * While the storage cannot be reached, nothing is known of the session: it throws the core's
 * `StorageUnavailable` (`isStorageUnavailable(error)`), never answers `null` for a session that may
 * be live. `requireSession` returns the core's `503` for it instead.
 *
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage.
 *
 * @example
 * ```ts
 * // src/pages/api/whoami.ts
 * import type { APIContext } from "astro"
 * import { getSession } from "@sesame/astro"
 *
 * export const prerender = false
 * export async function GET(context: APIContext) {
 *   const session = await getSession(context)
 *   return Response.json({ user: session?.user ?? null })
 * }
 * ```
 */
export async function getSession(context: AstroContext, config?: AuthConfig): Promise<Session | null> {
  const read = await sessionOf(context, configFor(context, config, "getSession"), "getSession")
  return read.session
}

/**
 * `context`'s session read for `prepared`; a prerendered page has none (policy 5). Its cookies go
 * on a page's response when no middleware of this configuration will write them.
 */
export async function sessionOf(context: AstroContext, prepared: Prepared, owner: string): Promise<SessionRead> {
  if (context.isPrerendered === true) return noSession
  const entry = readOf(context, prepared, owner)
  const read = await entry.result
  writeOnPage(context, prepared, entry, read.cookies)
  return read
}

/**
 * Writes a read's cookies on a page's `Astro.response` when no middleware of `prepared` runs
 * around the page to write them after it. Never after the route signed in or out (policy 6).
 */
function writeOnPage(context: AstroContext, prepared: Prepared, entry: Read, cookies: SessionRead["cookies"]): void {
  const state = stateOf(context)
  if (entry.written || cookies.length === 0 || state.decision || state.kept.has(prepared)) return
  const page = (context as { response?: { headers?: unknown } }).response
  if (!(page?.headers instanceof Headers)) return
  entry.written = true
  for (const line of setCookieLines(cookies)) page.headers.append("set-cookie", line)
  page.headers.set("cache-control", "private, no-store")
}
