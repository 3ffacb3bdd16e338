/**
 * The session of a request: `sessionMiddleware` (the session read once for every loader, action
 * and resource route, and kept alive) and `getSession(args)` for a loader or action.
 *
 * The session is read by the core's `readSession`, through the core's own `session` endpoint under
 * the base path, with the request's cookies and the headers the origin comes from: exactly what
 * the browser gets from `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database
 * session is looked up and extended).
 *
 * Policy:
 * 1. One read per request and configuration, whoever asks (the middleware, a guard, `getSession`
 *    in every loader of a navigation), kept with the request's context (config.ts, policy 4).
 * 2. Fail closed: a read that throws (a configuration the core cannot use, an adapter that fails)
 *    is logged through the configured logger and is a signed-out visitor: no session, no cookie.
 *    Except a storage outage (`StorageUnavailable`): nothing is known of the session then, and
 *    "signed out" would send every signed-in user to the sign-in page. The read rejects with it,
 *    unlogged (the core logs an outage when it begins and when it ends): the middleware answers
 *    the core's `503` (`unavailable.ts`), `getSession` throws it. No cookie is set or cleared.
 * 3. The session stays alive: the middleware writes the read's cookies on the response
 *    (`cookies.ts`). Without the middleware (no `future.v8_middleware`), `getSession(args, config)`
 *    reads the session at each call (nothing is kept between calls: config.ts, policy 4), and
 *    nothing writes a renewed cookie: the session then ends at its first expiry however active its
 *    user is.
 * 4. The auth routes under the base path are not read: the resource route answers for itself, and
 *    a renewed cookie written beside a sign-out's cleared one could undo it.
 * 5. Once an action signed out (`signOut(args)`), the request has no session: a later
 *    `getSession` or `requireSession` (the loaders that revalidate after the action) answers as for
 *    a signed-out visitor, and no cookie of the read is written (`cookies.ts`, policy 2). After
 *    `signIn(args)`, the read still describes the request as it came: the new session is the next
 *    request's.
 * 6. A router context is one request's: the middleware claims it (config.ts, policy 5).
 *
 * @module
 */
import type { AuthConfig, Session } from "@sesame/core"
import { isStorageUnavailable, isUnderPath, noSession, readSessionOrNone, type SessionRead } from "@sesame/core/integration"
import type { MiddlewareFunction } from "react-router"
import { claim, configFor, prepare, stateOf, use, type Prepared, type Read } from "./config.js"
import { keepAlive, signedOut } from "./cookies.js"
import type { RouteArgs } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * A middleware of React Router (`export const middleware = [...]` in a route module) that answers
 * with a `Response`, as server middleware does.
 *
 * @example
 * ```ts
 * export const middleware: SesameMiddleware[] = [sessionMiddleware(authConfig)]
 * ```
 */
export type SesameMiddleware = MiddlewareFunction<Response>

/** React Router's `next()` of a middleware: runs the rest of the request, with the response it made. */
export type Next = () => Promise<Response>

/**
 * The session read of the request of `args` for `prepared`, made once (policy 1 and 2); none after
 * a sign-out (policy 5). A storage outage rejects with its `StorageUnavailable` (policy 2).
 */
export function readOf(args: RouteArgs, prepared: Prepared, owner: string): Read {
  if (signedOut(args)) return { result: Promise.resolve(noSession), written: true }
  const { reads } = stateOf(args)
  let read = reads.get(prepared)
  if (!read) {
    read = { result: readSessionOrNone(prepared.config, { headers: args.request.headers, url: args.request.url }, owner), written: false }
    reads.set(prepared, read)
  }
  return read
}

/** What a middleware does with the request's session read, once the auth routes are let through. */
type WithRead = (args: RouteArgs, next: Next, read: SessionRead, prepared: Prepared) => Promise<Response>

/**
 * The start every middleware of this package shares: the configuration checked when it is made and
 * remembered for the request, the auth routes passed through (policy 4), `skip` too (paths a guard
 * does not protect), then `handle` with the request's one session read, or the core's `503` during
 * an outage.
 */
export function readingMiddleware(config: AuthConfig, owner: string, handle: WithRead, skip?: (args: RouteArgs) => boolean): SesameMiddleware {
  const prepared = prepare(config, owner)
  return async (args, next) => {
    claim(args, owner)
    use(args, prepared)
    if (isUnderPath(new URL(args.request.url).pathname, prepared.basePath)) return next()
    if (skip?.(args)) return next()
    let read: SessionRead
    try {
      read = await readOf(args, prepared, owner).result
    } catch (error) {
      // Only an outage rejects (policy 2): the core's 503, never the page as signed in or out.
      if (isStorageUnavailable(error)) return unavailableResponse(args.request, prepared, error)
      throw error
    }
    stateOf(args).kept.add(prepared)
    return handle(args, next, read, prepared)
  }
}

/** Writes the read's cookies (or an action's sign-in or sign-out's) on the response `next()` gives, once per read (policy 3 and 5). */
export async function continueWith(args: RouteArgs, next: Next, prepared: Prepared, cookies: SessionRead["cookies"]): Promise<Response> {
  const response = await next()
  const state = stateOf(args)
  const read = state.reads.get(prepared)
  if (read?.written && !state.decision) return response
  if (read) read.written = true
  return keepAlive(args, response, cookies)
}

/**
 * The middleware that reads the session of every request it runs for, once, for `getSession`,
 * `requireSession` and the guards of that request, and keeps it alive: the cookies the read sets
 * (a renewed JWT, a database session's new expiry, a cleared cookie that was no good) are written
 * on the response (the document, a `.data` response, a resource route's, a redirect), made
 * `Cache-Control: private, no-store`. It also gives `getSession`, `requireSession`, `signIn`,
 * `signOut` and `api` the configuration, and writes the cookies of a `signIn` / `signOut` that did
 * not redirect.
 *
 * Put it in `app/root.tsx`, whose middleware runs for every route; React Router runs route
 * middleware with `future: { v8_middleware: true }` in `react-router.config.ts`. The auth resource
 * route under the base path is passed through without a read. While the storage cannot be reached,
 * every request it reads answers the core's `503` "Try again in a moment" page (JSON for a client
 * that wants JSON) with `Retry-After`, never as signed in or out.
 *
 * @param config - the configuration; one that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * // app/root.tsx
 * import { sessionMiddleware } from "@sesame/react-router"
 * import { authConfig } from "./auth.server"
 *
 * export const middleware = [sessionMiddleware(authConfig)]
 * ```
 */
export function sessionMiddleware(config: AuthConfig): SesameMiddleware {
  return readingMiddleware(config, "sessionMiddleware", async (args, next, { cookies }, prepared) => continueWith(args, next, prepared, cookies))
}

/**
 * The session of the request, or `null` when there is none, it cannot be read (logged), or an
 * action signed out (`signOut(args, …)`) earlier in the request.
 *
 * Read once per request: after `sessionMiddleware` this is its read, whose cookies the middleware
 * writes. Given a configuration and called without the middleware, each call reads for itself, and
 * nothing writes the cookies that keep the session alive (policy 3).
 *
 * While the storage cannot be reached, nothing is known of the session: it throws the core's
 * `StorageUnavailable` (`isStorageUnavailable(error)`), never answers `null` for a session that may
 * be live. `requireSession` throws the core's `503` for it instead.
 *
 * @param args - the loader's or action's arguments.
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage.
 *
 * @example
 * ```ts
 * // app/root.tsx
 * import { getSession } from "@sesame/react-router"
 * import type { Route } from "./+types/root"
 *
 * export async function loader(args: Route.LoaderArgs) {
 *   const session = await getSession(args)
 *   return { user: session?.user ?? null }
 * }
 * ```
 */
export async function getSession(args: RouteArgs, config?: AuthConfig): Promise<Session | null> {
  const read = await readOf(args, configFor(args, config, "getSession"), "getSession").result
  return read.session
}
