/**
 * The session on the server: `getSession(req, config)` and `sessionLocals(config)`.
 *
 * The session is read by the core's `readSession` (`@sesame/core/integration`), through the
 * core's own `session` endpoint under the configured base path, with the request's cookies and
 * the headers the core takes the origin from: exactly what the browser gets from
 * `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database session is looked up
 * and extended).
 *
 * Policy:
 * 1. One read per request and configuration: `sessionLocals`, `requireSession` and `getSession`
 *    called for the same request share it, so the callbacks run once and one set of cookies is
 *    written.
 * 2. Fail closed: a read that throws (a configuration that cannot be used, an adapter that fails,
 *    a host the core refuses) is logged through the configured logger and is no session.
 *    Except a storage outage (`StorageUnavailable`: the database restarts, fails over): nothing is
 *    known of the session then, and taking it for "signed out" would send every signed-in user to
 *    the sign-in page. The read rejects with the `StorageUnavailable` (not logged: the core logs an
 *    outage once when it begins and once when it ends), so `getSession` throws it, `sessionLocals`
 *    passes it to `next` (its `status` 503 and `headers` make Express's handler answer `503` with
 *    `Retry-After`), and `requireSession` answers the core's `503` (`unavailable.ts`). No cookie is
 *    set or cleared.
 * 3. Keep the session alive: the cookies the read sets (a JWT re-issued with a later expiry, a
 *    database session's new expiry, a cleared cookie that was no good) go on the request's
 *    response, which Express links to it (`req.res`), whoever asked; that response then goes out
 *    with `Cache-Control: private, no-store` (see `response.ts`).
 *
 * @module
 */
import type { AuthConfig, Session, User } from "@sesame/core"
import { isStorageUnavailable, logFor, readSession, type SessionRead } from "@sesame/core/integration"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import { keepAlive } from "./response.js"
import type { ExpressRequest, Middleware } from "./types.js"

/** A session with a user: what a guarded route can rely on. */
export type AuthenticatedSession = Session & { user: User }

const reads = new WeakMap<ExpressRequest, Map<AuthConfig, Promise<SessionRead>>>()

/**
 * The read of `req`'s session for `config`, made once per request (policy 1); a read that fails is
 * no session, but a storage outage rejects with its `StorageUnavailable` (policy 2).
 */
export function sessionRead(req: ExpressRequest, config: AuthConfig): Promise<SessionRead> {
  let byConfig = reads.get(req)
  if (!byConfig) reads.set(req, (byConfig = new Map()))
  let read = byConfig.get(config)
  if (!read) {
    read = readAndKeepAlive(req, config)
    byConfig.set(config, read)
  }
  return read
}

async function readAndKeepAlive(req: ExpressRequest, config: AuthConfig): Promise<SessionRead> {
  let read: SessionRead
  try {
    read = await readSession(config, requestOf(req))
  } catch (error) {
    // An outage is not "signed out", and the core logged it where it began (policy 2).
    if (isStorageUnavailable(error)) throw error
    logFor(config).error("@sesame/express could not read the session and treats the request as signed out", error)
    return { session: null, cookies: [] }
  }
  if (req.res) keepAlive(req.res, read.cookies)
  return read
}

/**
 * The session of `req`, or `null` when there is none or it cannot be read (the cause is logged).
 * While Express handles `req`, the cookies that keep the session alive are set on its response.
 *
 * While the storage cannot be reached (a database session, and the database restarts), nothing is
 * known of the session: `getSession` rejects with the core's `StorageUnavailable`
 * (`isStorageUnavailable(error)`), never answers `null` for a session that may be live. Its
 * `status` (503) and `headers` (`Retry-After`) make Express's own error handler answer `503`;
 * {@link unavailableHandler} answers the core's "try again" page (or JSON) instead.
 *
 * @param req - the Express request being handled.
 * @param config - the configuration given to {@link SesameAuth}: the very object, so that the
 *   core resolves it once.
 * @returns what `GET <basePath>/session` returns: the session as the `session` callback shapes
 *   it, or `null`.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage. In Express 5,
 *   an async route that does not catch it passes it to the error handlers; in Express 4, catch it
 *   and call `next(error)`.
 *
 * @example
 * ```ts
 * app.get("/", async (req, res) => {
 *   const session = await getSession(req, authConfig)
 *   res.type("text/plain").send(session ? `Hello, ${session.user?.name}` : "Hello, stranger")
 * })
 * ```
 */
export async function getSession(req: ExpressRequest, config: AuthConfig): Promise<Session | null> {
  return (await sessionRead(req, config)).session
}

/**
 * A middleware that reads the session of every request it sees into `res.locals.session` (the
 * session, or `null`) for views and later handlers, and keeps it alive. It never refuses a
 * request: guard with {@link requireSession}.
 *
 * While the storage cannot be reached, the session is unknown, so the request cannot go on as a
 * signed-in or a signed-out one: the middleware passes the `StorageUnavailable` to `next(error)`.
 * Express's default handler answers it `503` with `Retry-After` (the error's `status` and
 * `headers`); {@link unavailableHandler} after your routes answers the core's "try again" page or
 * JSON. Every request it runs for is answered so: mount it only where views need the session, and
 * a public page that does not need it keeps working during an outage.
 *
 * @example
 * ```ts
 * app.use(sessionLocals(authConfig))
 * app.get("/", (req, res) => res.render("home", { user: res.locals.session?.user }))
 * ```
 */
export function sessionLocals(config: AuthConfig): Middleware<{ session: Session | null }> {
  checkConfig(config, "sessionLocals")
  return (req, res, next) => {
    sessionRead(req, config).then(({ session }) => {
      res.locals.session = session
      next()
    }, next)
  }
}
