/**
 * The session of a request: `sessionMiddleware` (`c.get("session")` for every route) and
 * `getSession(c)` for a route that reads it itself.
 *
 * The session is read by the core's `readSession`, through the core's own `session` endpoint under
 * the base path, with the request's cookies and the headers the origin comes from: exactly what
 * the browser gets from `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database
 * session is looked up and extended).
 *
 * Policy:
 * 1. One read per request and configuration, whoever asks (the middleware, a guard, `getSession`).
 * 2. Fail closed: a read that throws (a configuration the core cannot use, an adapter that fails)
 *    is logged through the configured logger and is a signed-out visitor: no session, no cookie.
 *    Except a storage outage (`StorageUnavailable`: the database restarts, fails over): nothing is
 *    known of the session then, and "signed out" would send every signed-in user to the sign-in
 *    page. The read rejects with it, unlogged (the core logs an outage once when it begins and once
 *    when it ends): `getSession` throws it, the middleware and `assertSession` throw the core's
 *    `503` as an `HTTPException` (`unavailable.ts`). No cookie is set or cleared.
 * 3. The session stays alive: the cookies the read sets are written on the response (`cookies.ts`).
 * 4. The auth routes under the base path are not read by the middleware: they answer for
 *    themselves, and a renewed cookie written beside a sign-out's cleared one could undo it.
 * 5. The read is of the request's cookies. Once the route signed out (`signOut(c)`), the request
 *    has no session: a later `getSession` or `assertSession` answers as for a signed-out visitor,
 *    and no cookie of the read is written (`cookies.ts`, policy 3). After `signIn(c)`, the read
 *    still describes the request as it came: the new session is the next request's.
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { isStorageUnavailable, logFor, readSession, type SessionRead } from "@sesame/core/integration"
import type { Context, Env, MiddlewareHandler, Next } from "hono"
import { checkConfig, configFor, currentConfig, isUnderBasePath, type Prepared, type SesameConfig } from "./config.js"
import { decided, keepAlive, signedOut, writeCookies } from "./cookies.js"
import type { SesameVariables } from "./types.js"
import { answerableUnavailable, unavailableException } from "./unavailable.js"

interface Read {
  readonly result: Promise<SessionRead>
  /** Whether a route's call (`getSession`, `assertSession`) wrote its cookies already. */
  written: boolean
}

const reads = new WeakMap<Context, Map<Prepared, Read>>()

/**
 * The session read of `c` for `prepared`, made once (policy 1 and 2); none after a sign-out (policy
 * 5). A storage outage rejects with its `StorageUnavailable` (policy 2).
 */
export function readOf(c: Context, prepared: Prepared, owner: string): Read {
  if (signedOut(c)) return { result: Promise.resolve({ session: null, cookies: [] }), written: true }
  let byConfig = reads.get(c)
  if (!byConfig) reads.set(c, (byConfig = new Map()))
  let read = byConfig.get(prepared)
  if (!read) {
    const request = { headers: c.req.raw.headers, url: c.req.url }
    const result = readSession(prepared.config, request).catch((error: unknown): SessionRead => {
      // An outage is not "signed out", and the core logged it where it began (policy 2).
      if (isStorageUnavailable(error)) throw error
      logFor(prepared.config).error(`${owner} could not read the session and treats the request as signed out`, error)
      return { session: null, cookies: [] }
    })
    read = { result, written: false }
    byConfig.set(prepared, read)
  }
  return read
}

/** The path of `c`'s request as the core routes it. */
function pathOf(c: Context): string {
  return new URL(c.req.url).pathname
}

/**
 * The middleware that reads the session of every request it runs for and sets it as
 * `c.get("session")` (the session, or `null`), keeping it alive: the cookies the read sets (a
 * renewed JWT, a database session's new expiry, a cleared cookie that was no good) are written on
 * the route's response, made `Cache-Control: private, no-store`. It also gives `signIn` and
 * `signOut` the configuration, and writes their cookies over the read's.
 *
 * The auth routes under the base path are passed through without a read.
 *
 * While the storage cannot be reached (database sessions, and the database restarts), the session
 * is unknown, so the request can go on neither signed in nor signed out: the middleware throws
 * Hono's `HTTPException(503)`, whose response is the core's "Try again in a moment" page (JSON for
 * a client that wants JSON) with `Retry-After`, and whose `cause` is the `StorageUnavailable`.
 * Every route it runs for answers so: mount it where routes use `c.get("session")`; a route it
 * does not run for, which reads no session, goes on as usual.
 *
 * @param config - the configuration, or a function of the context returning it (read at most once
 *   per request). A configuration that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * const app = new Hono<{ Variables: SesameVariables }>()
 * app.use("*", sessionMiddleware(authConfig))
 * app.get("/", (c) => c.text(c.get("session")?.user?.name ?? "Not signed in"))
 * ```
 */
export function sessionMiddleware<E extends Env = Env>(config: SesameConfig<E>): MiddlewareHandler<E & { Variables: SesameVariables }> {
  return readingMiddleware<E, E & { Variables: SesameVariables }>(config, "sessionMiddleware", async (c, next, { session, cookies }) => {
    c.set("session", session)
    await next()
    keepAlive(c, cookies)
    return undefined
  })
}

/** What a middleware does with the request's session read, once the auth routes are let through. */
type WithRead<E extends Env> = (c: Context<E>, next: Next, read: SessionRead, prepared: Prepared) => Promise<Response | undefined>

/**
 * The start every middleware of this package shares: the configuration checked when it is made
 * and read for the request, the auth routes under the base path passed through (policy 4), then
 * `handle` with the request's one session read.
 */
export function readingMiddleware<E extends Env, M extends Env>(config: SesameConfig<E>, owner: string, handle: WithRead<M>): MiddlewareHandler<M> {
  checkConfig(config, owner)
  return async (c, next) => {
    const prepared = await configFor(c, config, owner)
    if (isUnderBasePath(pathOf(c), prepared.basePath)) return next()
    let read: SessionRead
    try {
      read = await readOf(c, prepared, owner).result
    } catch (error) {
      // Only an outage rejects (policy 2): the core's 503, never the route as signed in or out.
      throw isStorageUnavailable(error) ? unavailableException(c, prepared, error) : error
    }
    return handle(c, next, read, prepared)
  }
}

/**
 * The session of the request, or `null` when there is none, it cannot be read (logged), or the
 * route signed out (`signOut(c, …)`) earlier in the request.
 *
 * Read once per request: after `sessionMiddleware` or `requireSession` this is their read. Called
 * without them, it writes the cookies that keep the session alive on the response the route makes
 * with `c` (`c.html`, `c.json`, `c.redirect`…; a plain `new Response` does not carry them), with
 * `Cache-Control: private, no-store`.
 *
 * While the storage cannot be reached, nothing is known of the session: it throws the core's
 * `StorageUnavailable` (`isStorageUnavailable(error)`), never answers `null` for a session that may
 * be live. Uncaught, Hono's default error handler answers it with the core's `503` "Try again in a
 * moment" page (JSON for a client that wants JSON) and `Retry-After`, through the `getResponse()`
 * it carries.
 *
 * @param config - optional after `sessionMiddleware` (or a guard) ran for the request: theirs is used.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage.
 *
 * @example
 * ```ts
 * app.get("/whoami", async (c) => {
 *   const session = await getSession(c, authConfig)
 *   return c.json({ user: session?.user ?? null })
 * })
 * ```
 */
export async function getSession<E extends Env = Env>(c: Context<E>, config?: SesameConfig<E>): Promise<Session | null> {
  const prepared = config === undefined ? currentConfig(c, "getSession") : await configFor(c, config, "getSession")
  let read: SessionRead
  try {
    read = await readOf(c, prepared, "getSession").result
  } catch (error) {
    throw isStorageUnavailable(error) ? answerableUnavailable(c, prepared, error) : error
  }
  writeOnce(c, prepared, read.cookies)
  return read.session
}

/**
 * Writes the cookies of `c`'s read for `prepared` on the route's response, once however often it is
 * asked, and never after the route signed in or out (policy 5).
 */
export function writeOnce(c: Context, prepared: Prepared, cookies: SessionRead["cookies"]): void {
  const read = reads.get(c)?.get(prepared)
  if (!read || read.written || decided(c)) return
  read.written = true
  writeCookies(c, cookies)
}
