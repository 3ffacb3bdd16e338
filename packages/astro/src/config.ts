/**
 * The configuration: what the app gives and what the core's `Auth()` receives for it, and the
 * state of a request that the middleware, the endpoint and the page share.
 *
 * Policy:
 * 1. The base path is the core's rule (`basePathOf`): `basePath`, else the path of `AUTH_URL` /
 *    `SESAME_URL`, else `/auth`, where the catch-all endpoint `src/pages/auth/[...sesame].ts` lives.
 * 2. `raw` is left out (a copy is made only then): the endpoint must answer with a `Response`.
 * 3. This is worked out once per configuration object (a WeakMap), and the core, which caches its
 *    resolution by object too, then resolves the configuration once rather than on every request.
 * 4. The request's state (its session reads, the configuration it was handled with, what the route
 *    signed in or out) is kept by its `locals`: the one object Astro gives the middleware, the
 *    endpoint and the page of a request, where the request itself may be another object after a
 *    rewrite. The configuration the request was handled with lets `getSession`, `requireSession`,
 *    `signIn`, `signOut` and `api` be called without it.
 * 5. Astro's `base` is read from `import.meta.env.BASE_URL`, which Vite writes into this package
 *    when it bundles it (Astro bundles every package that depends on `astro`, this one included),
 *    in `astro build` and `astro dev` alike. Where nothing wrote it (Node.js without Vite), there is
 *    no base.
 *
 * @module
 */
import type { AuthConfig, ResponseCookie } from "@sesame/core"
import { prepareConfig, type PreparedConfig, type SessionRead } from "@sesame/core/integration"
import type { AstroContext } from "./types.js"

/**
 * Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise: the folder
 * of the catch-all endpoint, `src/pages/auth/[...sesame].ts`.
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

/** What a request's `locals` carries for this package (policy 4). */
export interface RequestState {
  /** The configuration the request was last handled with. */
  current?: Prepared
  /** The session reads, one per configuration. */
  readonly reads: Map<Prepared, Read>
  /** The configurations whose middleware writes the read's cookies after the page. */
  readonly kept: Set<Prepared>
  /** The cookies of the route's `signIn` / `signOut`, in order (cookies.ts, policy 3). */
  decision?: { readonly cookies: ResponseCookie[]; signedOut: boolean }
}

const states = new WeakMap<object, RequestState>()

/**
 * Astro's `base` (policy 5) without its trailing slash: `"/docs"` for `base: "/docs"` or `"/docs/"`,
 * `""` for the default `"/"` and when it cannot be read.
 */
export function astroBase(): string {
  let base: unknown
  try {
    // The one expression Vite replaces (and Vitest's `vi.stubEnv` sets), written out exactly: not
    // `import.meta.env?.…`, nor through a cast. `ImportMeta` has no `env` without Vite's types.
    // @ts-ignore
    base = import.meta.env.BASE_URL as unknown
  } catch {
    // `import.meta.env` is undefined: Node.js without Vite.
    return ""
  }
  if (typeof base !== "string") return ""
  const path = base.replace(/\/+$/, "")
  return path === "" || path.startsWith("/") ? path : `/${path}`
}

/** `config` ready for the core (policy 1 to 3); a `TypeError` naming `owner` for anything but an object. */
export function prepare(config: unknown, owner: string): Prepared {
  return prepareConfig(config, owner, defaultBasePath)
}

/** The state of `context`'s request (policy 4), made on first use. */
export function stateOf(context: AstroContext): RequestState {
  const locals = context.locals
  let state = states.get(locals)
  if (!state) states.set(locals, (state = { reads: new Map(), kept: new Set() }))
  return state
}

/** `config` prepared and remembered as the one `context`'s request is handled with. */
export function use(context: AstroContext, config: Prepared): Prepared {
  stateOf(context).current = config
  return config
}

/**
 * The configuration for a call that may be given one: `config` (checked, then remembered for the
 * request), else the one the middleware or the endpoint handled the request with; a `TypeError`
 * saying what to add when there is neither.
 */
export function configFor(context: AstroContext, config: AuthConfig | undefined, owner: string): Prepared {
  if (config !== undefined) return use(context, prepare(config, owner))
  const found = stateOf(context).current
  if (found) return found
  throw new TypeError(
    `${owner}(context, …) needs Sesame's configuration: add sessionMiddleware(authConfig) to src/middleware.ts (export const onRequest = sequence(sessionMiddleware(authConfig), …)), or pass the configuration.`,
  )
}
