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
 * 3. Keep the session alive: the cookies the read sets (a JWT re-issued with a later expiry, a
 *    database session's new expiry, a cleared cookie that was no good) go on the request's
 *    response, which Express links to it (`req.res`), whoever asked; that response then goes out
 *    with `Cache-Control: private, no-store` (see `response.ts`).
 *
 * @module
 */
import type { AuthConfig, Session, User } from "@sesame/core"
import { logFor, readSession, type SessionRead } from "@sesame/core/integration"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import { keepAlive } from "./response.js"
import type { ExpressRequest, Middleware } from "./types.js"

/** A session with a user: what a guarded route can rely on. */
export type AuthenticatedSession = Session & { user: User }

const reads = new WeakMap<ExpressRequest, Map<AuthConfig, Promise<SessionRead>>>()

/** The read of `req`'s session for `config`, made once per request (policy 1); a read that fails is no session (policy 2). */
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
 * @param req - the Express request being handled.
 * @param config - the configuration given to {@link SesameAuth}: the very object, so that the
 *   core resolves it once.
 * @returns what `GET <basePath>/session` returns: the session as the `session` callback shapes
 *   it, or `null`.
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
