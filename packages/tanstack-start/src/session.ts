/**
 * The session of a request: `sessionMiddleware` (read once for every server function, server route
 * and page of the request, and kept alive) and `getSession()`.
 *
 * The session is read by the core's `readSession`, through the core's own `session` endpoint under
 * the base path, with the request's cookies and the headers the origin comes from: exactly what
 * the browser gets from `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database
 * session is looked up and extended).
 *
 * Policy:
 * 1. One read per request and configuration, whoever asks (the middleware, a guard, `getSession`
 *    in every server function the page's loaders call on the server), kept with the request.
 * 2. Fail closed: a read that throws (a configuration the core cannot use, an adapter that fails)
 *    is logged through the configured logger and is a signed-out visitor: no session, no cookie.
 *    Except a storage outage (`StorageUnavailable`): nothing is known of the session then, and
 *    "signed out" would send every signed-in user to the sign-in page. The read rejects with it,
 *    unlogged (the core logs an outage when it begins and when it ends): the middleware answers
 *    the core's `503`, `getSession` throws it. No cookie is set or cleared.
 * 3. The session stays alive: the cookies the read sets (a renewed JWT, a database session's new
 *    expiry, a cleared cookie that was no good) are written on the request's response, whoever made
 *    the read (cookies.ts).
 * 4. Sesame's own server route under the base path is not read (paths.ts, policy 2).
 * 5. Once a server function signed out (`signOut()`), the request has no session: a later
 *    `getSession` or `requireSession` answers as for a signed-out visitor. After `signIn()`, the
 *    read still describes the request as it came: the new session is the next request's.
 *
 * @module
 */
import type { AuthConfig, Session } from "@sesame/core"
import { isStorageUnavailable, noSession, readSessionOrNone, type SessionRead } from "@sesame/core/integration"
import type { RequestServerFn } from "@tanstack/react-start"
import { configFor, currentRequest, prepare, stateOf, use, type Prepared } from "./config.js"
import { writeCookies } from "./cookies.js"
import { formsOf, isAuthRoute } from "./paths.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * The session read of `request` for `prepared`, made once, its cookies written when it resolves
 * (policy 1 to 3); none after a sign-out (policy 5). A storage outage rejects with its
 * `StorageUnavailable` (policy 2).
 */
export function readOf(request: Request, prepared: Prepared, owner: string): Promise<SessionRead> {
  const state = stateOf(request)
  if (state.signedOut) return Promise.resolve(noSession)
  let read = state.reads.get(prepared)
  if (!read) {
    const keepsAlive = !isAuthRoute(formsOf(request), prepared.basePath)
    read = readSessionOrNone(prepared.config, { headers: request.headers, url: request.url }, owner).then((result) => {
      if (keepsAlive && !state.signedOut) writeCookies(result.cookies)
      return result
    })
    // Whoever awaits it sees an outage; one nobody awaits yet is not an unhandled rejection.
    read.catch(() => {})
    state.reads.set(prepared, read)
  }
  return read
}

/**
 * The server function of a TanStack Start request middleware, for `createMiddleware().server(…)`
 * in the app's `src/start.ts`. Made there, in the app's own code, TanStack Start's compiler takes
 * it (and Sesame with it) out of the browser's bundle, as it does every `.server()`.
 */
export type SesameRequestServerFn = RequestServerFn<any, any, any>

/** What TanStack Start gives a request middleware's server function. */
type RequestMiddlewareArgs = Parameters<SesameRequestServerFn>[0]

/**
 * The server function of a request middleware that does `handle`, with the configuration checked
 * when it is made and remembered for each request, Sesame's own server route passed through
 * (policy 4), and the outage's `503` for a read that meets one.
 */
export function sesameMiddleware(config: AuthConfig, owner: string, handle: (args: RequestMiddlewareArgs, prepared: Prepared) => ReturnType<SesameRequestServerFn>): SesameRequestServerFn {
  const prepared = prepare(config, owner)
  return async (args) => {
    const { request, pathname, next } = args
    use(request, prepared)
    if (isAuthRoute(formsOf(request, pathname), prepared.basePath)) return next()
    try {
      return await handle(args, prepared)
    } catch (error) {
      // Only an outage rejects a read (policy 2): the core's 503, never the page as signed in or out.
      if (isStorageUnavailable(error)) return unavailableResponse(request, prepared, error)
      throw error
    }
  }
}

/**
 * The server function of the request middleware that reads the session of every request once, for `getSession`,
 * `requireSession` and the guards of that request, and keeps it alive: the cookies the read sets
 * go on the response (the page, a server function's answer, a server route's, a redirect), made
 * `Cache-Control: private, no-store`. It puts the session in the context of the request
 * (`context.session` in server routes and later middleware), and gives `getSession`,
 * `requireSession`, `signIn`, `signOut` and `api` the configuration.
 *
 * Give it to `createMiddleware().server(…)` in `src/start.ts`, and put that first in
 * `requestMiddleware`: it runs for every request, server functions included. Made there, TanStack
 * Start's compiler keeps it, and Sesame, out of the browser's bundle. Sesame's own server route under the base path is passed through without a
 * read. While the storage cannot be reached, every request it reads answers the core's `503` "Try
 * again in a moment" page (JSON for a client that wants JSON) with `Retry-After`, never as signed
 * in or out.
 *
 * @param config - the configuration; one that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * // src/start.ts
 * import { createMiddleware, createStart } from "@tanstack/react-start"
 * import { sessionMiddleware } from "@sesame/tanstack-start"
 * import { authConfig } from "./auth"
 *
 * export const startInstance = createStart(() => ({
 *   requestMiddleware: [createMiddleware().server(sessionMiddleware(authConfig))],
 * }))
 * ```
 */
export function sessionMiddleware(config: AuthConfig): SesameRequestServerFn {
  return sesameMiddleware(config, "sessionMiddleware", async ({ request, next }, prepared) => {
    const { session } = await readOf(request, prepared, "sessionMiddleware")
    return next({ context: { session } })
  })
}

/**
 * The session of the request TanStack Start is handling, or `null` when there is none, it cannot be
 * read (logged), or a server function signed out (`signOut()`) earlier in the request.
 *
 * Call it on the server: in a server function (`createServerFn`), a server route's handler, or
 * request middleware. Read once per request; its cookies (a renewed session) go on the response.
 *
 * While the storage cannot be reached, nothing is known of the session: it throws the core's
 * `StorageUnavailable` (`isStorageUnavailable(error)`), never answers `null` for a session that may
 * be live. `requireSession` throws the core's `503` for it instead.
 *
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage; a `TypeError`
 *   outside a request.
 *
 * @example
 * ```ts
 * // src/session.ts
 * import { createServerFn } from "@tanstack/react-start"
 * import { getSession } from "@sesame/tanstack-start"
 *
 * export const fetchSession = createServerFn({ method: "GET" }).handler(() => getSession())
 * ```
 */
export async function getSession(config?: AuthConfig): Promise<Session | null> {
  const request = currentRequest("getSession")
  const read = await readOf(request, configFor(request, config, "getSession"), "getSession")
  return read.session
}
