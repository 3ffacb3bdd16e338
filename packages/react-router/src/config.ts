/**
 * The configuration: what the app gives and what the core's `Auth()` receives for it, and the
 * state of a request that the middleware, the resource route, the loaders and actions share.
 *
 * Policy:
 * 1. The base path is the core's rule (`basePathOf`): `basePath`, else the path of `AUTH_URL` /
 *    `SESAME_URL`, else `/auth`, where the resource route `route("auth/*", "routes/auth.ts")` lives.
 * 2. `raw` is left out (a copy is made only then): the resource route must answer with a `Response`.
 * 3. This is worked out once per configuration object (a WeakMap), and the core, which caches its
 *    resolution by object too, then resolves the configuration once rather than on every request.
 * 4. The request's state (its session reads, the configuration it was handled with, what an action
 *    signed in or out) is kept by its `context`: with `future.v8_middleware`, the one
 *    `RouterContextProvider` React Router makes for a request and hands its middleware, loaders and
 *    actions (the request is not one object: each loader gets a copy). Without it, nothing is kept:
 *    the load context may be one object for every request (a server's `getLoadContext` returning a
 *    constant), and a session read kept there would be served to the next visitor. Each call then
 *    reads for itself, with the configuration it is given; so it does with a router context that
 *    no middleware of this package claimed. The configuration the request was handled with lets
 *    `getSession`, `requireSession`, `signIn`, `signOut` and `api` be called without it.
 * 5. A router context is one request's. A server whose `getLoadContext` hands React Router the same
 *    `RouterContextProvider` for every request would carry one visitor's session to the next: the
 *    first middleware of this package claims the context for its request, and one that meets a
 *    context another request claimed throws a `TypeError` that says so, before anything is read.
 *
 * @module
 */
import type { AuthConfig, ResponseCookie } from "@sesame/core"
import { prepareConfig, type PreparedConfig, type SessionRead } from "@sesame/core/integration"
import { RouterContextProvider } from "react-router"
import type { RouteArgs } from "./types.js"

/**
 * Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise: the path of
 * the resource route, `route("auth/*", "routes/auth.ts")` in `app/routes.ts`.
 *
 * @example
 * ```ts
 * const signInPage = `${defaultBasePath}/signin` // "/auth/signin"
 * ```
 */
export const defaultBasePath = "/auth"

/** A configuration ready for the core, with its base path (the core's `prepareConfig`). */
export type Prepared = PreparedConfig

/** One session read of a request (session.ts). */
export interface Read {
  readonly result: Promise<SessionRead>
  /** Whether its cookies went on a response already. */
  written: boolean
}

/** What a request's context carries for this package (policy 4). */
export interface RequestState {
  /** The request the first middleware of this package saw with this context (policy 5). */
  request?: Request
  /** The configuration the request was last handled with. */
  current?: Prepared
  /** The session reads, one per configuration. */
  readonly reads: Map<Prepared, Read>
  /** The configurations whose middleware writes the read's cookies after the route. */
  readonly kept: Set<Prepared>
  /** The cookies of an action's `signIn` / `signOut`, in order (cookies.ts, policy 2). */
  decision?: { readonly cookies: ResponseCookie[]; signedOut: boolean }
}

const states = new WeakMap<RouterContextProvider, RequestState>()

/** `config` ready for the core (policy 1 to 3); a `TypeError` naming `owner` for anything but an object. */
export function prepare(config: unknown, owner: string): Prepared {
  return prepareConfig(config, owner, defaultBasePath)
}

/**
 * Whether `context` is React Router's per-request router context. By its class, or by its class's
 * name where a bundle holds a second copy of React Router.
 */
function isRouterContext(context: unknown): context is RouterContextProvider {
  return context instanceof RouterContextProvider || (typeof context === "object" && context !== null && context.constructor?.name === "RouterContextProvider")
}

/**
 * The state of the request of `args` (policy 4): the one a middleware of this package claimed for
 * its router context, else a new one each call (nothing is kept where no middleware can tell one
 * request from the next).
 */
export function stateOf(args: RouteArgs): RequestState {
  const context = args.context
  return (isRouterContext(context) ? states.get(context) : undefined) ?? { reads: new Map(), kept: new Set() }
}

/**
 * Claims the router context of a middleware's `args` for its request, on the first middleware of
 * this package that runs for it, and refuses a context another request claimed (policy 5).
 */
export function claim(args: RouteArgs, owner: string): void {
  const context = args.context
  if (!isRouterContext(context)) return
  const state = states.get(context)
  if (!state) {
    states.set(context, { request: args.request, reads: new Map(), kept: new Set() })
    return
  }
  if (state.request !== args.request) {
    throw new TypeError(
      `${owner}: this RouterContextProvider served another request already. A server's getLoadContext must return a new RouterContextProvider for each request; one shared by every request would carry one visitor's session to the next.`,
    )
  }
}

/** `config` prepared and remembered as the one the request of `args` is handled with. */
export function use(args: RouteArgs, config: Prepared): Prepared {
  stateOf(args).current = config
  return config
}

/**
 * The configuration for a call that may be given one: `config` (checked, then remembered for the
 * request), else the one the middleware handled the request with; a `TypeError` saying what to add
 * when there is neither.
 */
export function configFor(args: RouteArgs, config: AuthConfig | undefined, owner: string): Prepared {
  if (config !== undefined) return use(args, prepare(config, owner))
  const found = stateOf(args).current
  if (found) return found
  throw new TypeError(
    `${owner}(args, …) needs Sesame's configuration: add \`export const middleware = [sessionMiddleware(authConfig)]\` to app/root.tsx, with \`future: { v8_middleware: true }\` in react-router.config.ts, or pass the configuration.`,
  )
}
