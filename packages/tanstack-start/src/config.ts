/**
 * The configuration, and the state of one request that the middleware, the server route, the
 * server functions and the guards share.
 *
 * Policy:
 * 1. The base path is the core's rule (`basePathOf`): `basePath`, else the path of `AUTH_URL` /
 *    `SESAME_URL`, else `/auth`, where the server route `src/routes/auth/$.ts` lives.
 * 2. This is worked out once per configuration object (the core's `prepareConfig`), so the core
 *    resolves the configuration once rather than on every request.
 * 3. A request's state is kept by its `Request`: TanStack Start hands the same object to the
 *    request middleware and, through `getRequest()`, to server functions, server routes and the
 *    loaders it runs on the server for that request. Nothing is kept between requests.
 * 4. Outside a request TanStack Start handles (a module's top level, a browser), the calls that
 *    need one throw a `TypeError` that says where to call them.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { prepareConfig, type PreparedConfig, type SessionRead } from "@sesame/core/integration"
import { getRequest } from "@tanstack/react-start/server"

/**
 * Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise: the path of
 * the server route `src/routes/auth/$.ts`.
 *
 * @example
 * ```ts
 * const signInPage = `${defaultBasePath}/signin` // "/auth/signin"
 * ```
 */
export const defaultBasePath = "/auth"

/** A configuration ready for the core, with its base path (the core's `prepareConfig`). */
export type Prepared = PreparedConfig

/** What a request carries for this package (policy 3). */
export interface RequestState {
  /** The configuration the request was last handled with. */
  current?: Prepared
  /** The session reads, one per configuration. */
  readonly reads: Map<Prepared, Promise<SessionRead>>
  /** Whether a server function signed out during the request: it has no session from then on. */
  signedOut: boolean
}

const states = new WeakMap<Request, RequestState>()

/** `config` ready for the core (policy 1 and 2); a `TypeError` naming `owner` for anything but an object. */
export function prepare(config: unknown, owner: string): Prepared {
  return prepareConfig(config, owner, defaultBasePath)
}

/** The state of `request` (policy 3), made on first use. */
export function stateOf(request: Request): RequestState {
  let state = states.get(request)
  if (!state) {
    state = { reads: new Map(), signedOut: false }
    states.set(request, state)
  }
  return state
}

/** `prepared`, remembered as the configuration `request` is handled with. */
export function use(request: Request, prepared: Prepared): Prepared {
  stateOf(request).current = prepared
  return prepared
}

/** The request TanStack Start is handling, or a `TypeError` naming `owner` (policy 4). */
export function currentRequest(owner: string): Request {
  try {
    return getRequest()
  } catch {
    throw new TypeError(
      `${owner}() needs the request TanStack Start is handling: call it in a server function (createServerFn), a server route's handler or request middleware, not at a module's top level or in the browser.`,
    )
  }
}

/**
 * The configuration for a call that may be given one: `config` (checked, then remembered for the
 * request), else the one the middleware handled the request with; a `TypeError` saying what to add
 * when there is neither.
 */
export function configFor(request: Request, config: AuthConfig | undefined, owner: string): Prepared {
  if (config !== undefined) return use(request, prepare(config, owner))
  const found = stateOf(request).current
  if (found) return found
  throw new TypeError(
    `${owner}() needs Sesame's configuration: add sessionMiddleware(authConfig) to requestMiddleware in src/start.ts, or pass the configuration.`,
  )
}
