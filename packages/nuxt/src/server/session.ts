/**
 * The session of a request: `sessionMiddleware` (`event.context.session` for every route and
 * page) and `getServerSession(event)` for code that reads it itself.
 *
 * The session is read by the core's `readSession`, through the core's own `session` endpoint under
 * the base path, with the request's cookies and the headers the origin comes from: exactly what the
 * browser gets from `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database
 * session is looked up and extended).
 *
 * Policy:
 * 1. One read per request and configuration, whoever asks (the middleware, a guard, a route, the
 *    page's server rendering), kept with the request's event (config.ts, policy 2).
 * 2. Fail closed: a read that throws (a configuration the core cannot use, an adapter that fails)
 *    is logged and is a signed-out visitor (the core's `readSessionOrNone`). Except a storage
 *    outage (`StorageUnavailable`): nothing is known of the session then. The middleware answers
 *    the core's `503`; `getServerSession` throws the `StorageUnavailable`. No cookie is written.
 * 3. The session stays alive: the read's cookies go on the event's response once (cookies.ts).
 * 4. The auth routes under the base path are not read: the route answers for itself.
 * 5. Once a route signed out (`signOut(event)`), the request has no session: a later read answers
 *    as for a signed-out visitor, and `event.context.session` is `null`.
 *
 * @module
 */
import type { AuthConfig, Session } from "@sesame/core"
import { isStorageUnavailable, isUnderPath, noSession, readSessionOrNone, type SessionRead } from "@sesame/core/integration"
import { defineEventHandler, getRequestURL, type EventHandler } from "h3"
import { configFor, prepare, stateOf, use, type Prepared, type Read } from "./config.js"
import { writeCookies } from "./cookies.js"
import { requestLike } from "./request.js"
import type { Event, SesameContext } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/** The session read of `event` for `prepared`, made once (policy 1 and 2); none after a sign-out (policy 5). */
export function readOf(event: Event, prepared: Prepared, owner: string): Read {
  const state = stateOf(event)
  if (state.signedOut) return { result: Promise.resolve(noSession), written: true }
  let read = state.reads.get(prepared)
  if (!read) {
    const { headers, url } = requestLike(event)
    read = { result: readSessionOrNone(prepared.config, { headers, url }, owner), written: false }
    state.reads.set(prepared, read)
  }
  return read
}

/** The read's session, its cookies written on the event's response once (policy 3). Rejects with an outage's `StorageUnavailable`. */
export async function sessionOf(event: Event, prepared: Prepared, owner: string): Promise<SessionRead> {
  const entry = readOf(event, prepared, owner)
  const read = await entry.result
  if (!entry.written) {
    entry.written = true
    writeCookies(event, read.cookies, false)
  }
  return read
}

/** `event.context` as this package writes it. */
export function contextOf(event: Event): SesameContext {
  return event.context as unknown as SesameContext
}

/**
 * The event's path as h3's router matches it (as it came, `..` segments and all, without the query)
 * and as a URL resolves it: a decision by path must hold for both.
 */
export function pathsOf(event: Event): string[] {
  const raw = event.path.replace(/[?#].*$/, "") || "/"
  const resolved = getRequestURL(event).pathname
  return raw === resolved ? [raw] : [raw, resolved]
}

/** Whether `event` is for the auth routes under the base path (policy 4), however its path is read. */
export function isAuthRoute(event: Event, prepared: Prepared): boolean {
  return pathsOf(event).every((path) => isUnderPath(path, prepared.basePath))
}

/**
 * The server middleware that reads the session of every request, once, and sets it as
 * `event.context.session` (the session, or `null`), keeping it alive: the cookies the read sets go
 * on the response, made `Cache-Control: private, no-store`. It also gives `getServerSession`,
 * `requireSession`, `signIn`, `signOut` and `api` the configuration. The auth routes under the base
 * path are passed through without a read. While the storage cannot be reached, every request it
 * reads answers the core's `503` "Try again in a moment" page (JSON for a script) with
 * `Retry-After`, never as signed in or out.
 *
 * @param config - the configuration; one that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * // server/middleware/sesame.ts
 * import { sessionMiddleware } from "@sesame/nuxt/server"
 * import { authConfig } from "../utils/auth"
 *
 * export default sessionMiddleware(authConfig)
 * ```
 */
export function sessionMiddleware(config: AuthConfig): EventHandler<Request, Promise<Response | undefined>> {
  const prepared = prepare(config, "sessionMiddleware")
  return defineEventHandler(async (event) => {
    use(event, prepared)
    if (isAuthRoute(event, prepared)) return undefined
    try {
      contextOf(event).session = (await sessionOf(event, prepared, "sessionMiddleware")).session
    } catch (error) {
      if (isStorageUnavailable(error)) return unavailableResponse(event, prepared, error)
      throw error
    }
    return undefined
  })
}

/**
 * The session of the request, or `null` when there is none, it cannot be read (logged), or a route
 * signed out earlier in the request. Read once per request: after `sessionMiddleware`, this is its
 * read. Its cookies go on the event's response.
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
 * // server/api/whoami.get.ts
 * import { getServerSession } from "@sesame/nuxt/server"
 *
 * export default defineEventHandler(async (event) => {
 *   const session = await getServerSession(event)
 *   return { user: session?.user ?? null }
 * })
 * ```
 */
export async function getServerSession(event: Event, config?: AuthConfig): Promise<Session | null> {
  return (await sessionOf(event, configFor(event, config, "getServerSession"), "getServerSession")).session
}
