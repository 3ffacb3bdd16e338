/**
 * The configuration, and the state of a request that the server middleware, the routes and the
 * pages' server rendering share.
 *
 * Policy:
 * 1. The base path is the core's rule (`prepareConfig`): `basePath`, else the path of `AUTH_URL` /
 *    `SESAME_URL`, else `/auth`, where the route `server/routes/auth/[...].ts` lives. `raw` is left
 *    out: the route must answer with a `Response`. Worked out once per configuration object.
 * 2. The request's state (its session reads, the configuration it was handled with, what a route
 *    signed in or out) is kept by its h3 event: Nitro makes one per request and hands the same one
 *    to the server middleware, the route and the page's server rendering (`useRequestEvent()`).
 *    The configuration the request was handled with lets `getServerSession`, `requireSession`,
 *    `signIn`, `signOut` and `api` be called without it.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { prepareConfig, type PreparedConfig, type SessionRead } from "@sesame/core/integration"
import type { Event } from "./types.js"

/**
 * Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise: the folder of
 * the route `server/routes/auth/[...].ts`.
 *
 * @example
 * ```ts
 * const signInPage = `${defaultBasePath}/signin` // "/auth/signin"
 * ```
 */
export const defaultBasePath = "/auth"

/** A configuration ready for the core, with its base path. */
export type Prepared = PreparedConfig

/** One session read of a request (session.ts). */
export interface Read {
  readonly result: Promise<SessionRead>
  /** Whether its cookies went on the event's response already. */
  written: boolean
}

/** What a request's event carries for this package (policy 2). */
export interface RequestState {
  /** The configuration the request was last handled with. */
  current?: Prepared
  /** The session reads, one per configuration. */
  readonly reads: Map<Prepared, Read>
  /** Whether a route signed out during the request (cookies.ts). */
  signedOut: boolean
}

const states = new WeakMap<Event, RequestState>()

/** `config` ready for the core (policy 1); a `TypeError` naming `owner` for anything but an object. */
export function prepare(config: unknown, owner: string): Prepared {
  return prepareConfig(config, owner, defaultBasePath)
}

/** The state of `event`'s request (policy 2), made on first use. */
export function stateOf(event: Event): RequestState {
  let state = states.get(event)
  if (!state) states.set(event, (state = { reads: new Map(), signedOut: false }))
  return state
}

/** `config` remembered as the one `event`'s request is handled with. */
export function use(event: Event, config: Prepared): Prepared {
  stateOf(event).current = config
  return config
}

/**
 * The configuration for a call that may be given one: `config` (checked, then remembered for the
 * request), else the one the middleware or the route handled the request with; a `TypeError` saying
 * what to add when there is neither.
 */
export function configFor(event: Event, config: AuthConfig | undefined, owner: string): Prepared {
  if (config !== undefined) return use(event, prepare(config, owner))
  const found = stateOf(event).current
  if (found) return found
  throw new TypeError(
    `${owner}(event, …) needs Sesame's configuration: add server/middleware/sesame.ts with \`export default sessionMiddleware(authConfig)\`, or pass the configuration.`,
  )
}

