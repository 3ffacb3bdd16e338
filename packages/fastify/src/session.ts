/**
 * The session on the server: `getSession(request, reply, config)` and `sessionHook(config)`.
 *
 * The session is read by the core's `readSession` (`@sesame/core/integration`), through the
 * core's own `session` endpoint under the configured base path, with the request's cookies and
 * the headers the core takes the origin from: exactly what the browser gets from
 * `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database session is looked up
 * and extended).
 *
 * Policy:
 * 1. One read per request and configuration: `sessionHook`, `requireSession` and `getSession`
 *    called for the same request share it, so the callbacks run once and one set of cookies is
 *    written. What it found is `request.session`.
 * 2. Fail closed: a read that throws (a configuration that cannot be used, an adapter that fails,
 *    a host the core refuses) is logged through the configured logger and is no session.
 *    Except a storage outage (`StorageUnavailable`: the database restarts, fails over): nothing is
 *    known of the session then, and taking it for "signed out" would send every signed-in user to
 *    the sign-in page. The read rejects with the `StorageUnavailable` (not logged: the core logs an
 *    outage once when it begins and once when it ends), so `getSession` throws it, `sessionHook`
 *    hands it to Fastify's error handling (its `status` 503 and `headers` make Fastify's default
 *    handler answer `503` with `Retry-After`), and `requireSession` answers the core's `503`
 *    (`unavailable.ts`). No cookie is set or cleared.
 * 3. Keep the session alive: the cookies the read sets (a JWT re-issued with a later expiry, a
 *    database session's new expiry, a cleared cookie that was no good) go on the request's reply;
 *    that reply then goes out with `Cache-Control: private, no-store` (see `response.ts`).
 *
 * @module
 */
import type { AuthConfig, Session } from "@sesame/core"
import { isStorageUnavailable, logFor, readSession, type SessionRead } from "@sesame/core/integration"
import type { FastifyReply, FastifyRequest } from "fastify"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import { keepAlive } from "./response.js"
import type { SesameHook } from "./types.js"

const reads = new WeakMap<FastifyRequest, Map<AuthConfig, Promise<SessionRead>>>()

/**
 * The read of `request`'s session for `config`, made once per request (policy 1); a read that
 * fails is no session, but a storage outage rejects with its `StorageUnavailable` (policy 2).
 */
export function sessionRead(request: FastifyRequest, reply: FastifyReply, config: AuthConfig): Promise<SessionRead> {
  let byConfig = reads.get(request)
  if (!byConfig) reads.set(request, (byConfig = new Map()))
  let read = byConfig.get(config)
  if (!read) {
    read = readAndKeepAlive(request, reply, config)
    byConfig.set(config, read)
  }
  return read
}

async function readAndKeepAlive(request: FastifyRequest, reply: FastifyReply, config: AuthConfig): Promise<SessionRead> {
  let read: SessionRead
  try {
    read = await readSession(config, requestOf(request))
  } catch (error) {
    // An outage is not "signed out", and the core logged it where it began (policy 2).
    if (isStorageUnavailable(error)) throw error
    logFor(config).error("@sesame/fastify could not read the session and treats the request as signed out", error)
    read = { session: null, cookies: [] }
  }
  keepAlive(reply, read.cookies)
  request.session = read.session
  return read
}

/**
 * The session of `request`, or `null` when there is none or it cannot be read (the cause is
 * logged); also put in `request.session`. The cookies that keep the session alive are set on
 * `reply`.
 *
 * While the storage cannot be reached (a database session, and the database restarts), nothing is
 * known of the session: `getSession` rejects with the core's `StorageUnavailable`
 * (`isStorageUnavailable(error)`), never answers `null` for a session that may be live. Its
 * `status` (503) and `headers` (`Retry-After`) make Fastify's default error handler answer `503`
 * when the route lets it go; {@link unavailableHandler} answers the core's "try again" page (or
 * JSON) instead.
 *
 * @param request - the Fastify request being handled.
 * @param reply - its reply, which gets the cookies that keep the session alive.
 * @param config - the configuration given to the {@link sesame} plugin: the very object, so that
 *   the core resolves it once.
 * @returns what `GET <basePath>/session` returns: the session as the `session` callback shapes
 *   it, or `null`.
 * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage.
 *
 * @example
 * ```ts
 * app.get("/", async (request, reply) => {
 *   const session = await getSession(request, reply, authConfig)
 *   return session ? `Hello, ${session.user?.name}` : "Hello, stranger"
 * })
 * ```
 */
export async function getSession(request: FastifyRequest, reply: FastifyReply, config: AuthConfig): Promise<Session | null> {
  return (await sessionRead(request, reply, config)).session
}

/**
 * A hook that reads the session of every request it runs for into `request.session` (the
 * session, or `null`) for views and later handlers, and keeps it alive. It never refuses a
 * request: guard with {@link requireSession}.
 *
 * Add it where pages need the session: on the app (`app.addHook("onRequest", sessionHook(config))`),
 * in a plugin (Fastify's encapsulation keeps it there), or on one route. It does not run for
 * Sesame's own endpoints.
 *
 * While the storage cannot be reached, the session is unknown, so the request cannot go on as a
 * signed-in or a signed-out one: the hook hands the `StorageUnavailable` to Fastify's error
 * handling. Fastify's default handler answers it `503` with `Retry-After` (the error's `status`
 * and `headers`); {@link unavailableHandler} as the error handler answers the core's "try again"
 * page or JSON. Every request it runs for is answered so: a public page that does not need the
 * session keeps working during an outage when it is outside the hook's scope.
 *
 * @param config - the configuration given to the {@link sesame} plugin.
 * @throws `TypeError` when `config` is not an object.
 *
 * @example
 * ```ts
 * app.addHook("onRequest", sessionHook(authConfig))
 * app.get("/", async (request) => (request.session ? `Hello, ${request.session.user?.name}` : "Hello, stranger"))
 * ```
 */
export function sessionHook(config: AuthConfig): SesameHook {
  checkConfig(config, "sessionHook")
  return (request, reply, done) => {
    if (isEndpoint(request)) return done()
    sessionRead(request, reply, config).then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    )
  }
}

/**
 * The mark of the routes that serve Sesame's endpoints (`plugin.ts`), in their route `config`: a
 * session hook leaves their requests alone. A symbol, which no JSON config of the app's can forge.
 */
export const endpointRoute: unique symbol = Symbol("@sesame/fastify endpoint")

/** Whether `request` is one for Sesame's endpoints, whose handler reads the session itself. */
function isEndpoint(request: FastifyRequest): boolean {
  const config = request.routeOptions.config as { [endpointRoute]?: true } | undefined
  return config?.[endpointRoute] === true
}
