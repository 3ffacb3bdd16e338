/**
 * The configuration: what the app gives (an object, or a function of the request's context) and
 * what the core's `Auth()` receives for it.
 *
 * Policy:
 * 1. The base path, which tells the auth routes apart from the app's, is the core's rule
 *    (`basePathOf`): `basePath`, else the path of `AUTH_URL` / `SESAME_URL`, else `/auth`, the
 *    spec's default for every framework but Next.js and the core's own, so the configuration
 *    reaches the core as the app wrote it.
 * 2. `raw` is left out (a copy is made only then): the handler must answer with a `Response`.
 * 3. This is worked out once per configuration object (a WeakMap), and the core, which caches its
 *    resolution by object too, then resolves the configuration once rather than on every request.
 * 4. A lazy configuration (`(c) => config`, for Workers' `c.env` bindings, as `initAuthConfig` of
 *    Auth.js's Hono middleware offers) runs at most once per request, whichever of the handler,
 *    the middleware, the guards and `getSession` asks first; return the same object for the same
 *    bindings to keep 3's saving.
 * 5. The configuration the request was handled with is remembered on its context, so that `signIn`
 *    and `signOut` in a route need not be given it again.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { basePathOf } from "@sesame/core/integration"
import type { Context, Env } from "hono"

/** Where the endpoints live unless `basePath` or the path of `AUTH_URL` says otherwise. */
export const defaultBasePath = "/auth"

/**
 * The configuration of every function of this package: the core's `AuthConfig`, or a function of
 * the request's context that returns it (lazy: read secrets from `c.env` on Cloudflare Workers).
 * The function runs at most once per request.
 */
export type SesameConfig<E extends Env = Env> = AuthConfig | ((c: Context<E>) => AuthConfig | Promise<AuthConfig>)

/** A configuration ready for the core, with its base path. */
export interface Prepared {
  /** Where the auth routes are, as the core routes them. */
  readonly basePath: string
  /** What `Auth()` and the `@sesame/core/integration` helpers receive. */
  readonly config: AuthConfig
}

const prepared = new WeakMap<AuthConfig, Prepared>()

/** `config` ready for the core (policy 1 to 3); a `TypeError` for anything but an object. */
function prepare(config: unknown, owner: string): Prepared {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${owner}: expected a configuration object with at least \`providers\`, or a function of the context returning one; got ${config === null ? "null" : typeof config}.`)
  }
  const given = config as AuthConfig
  const cached = prepared.get(given)
  if (cached) return cached
  const { raw, ...rest } = given
  const result: Prepared = Object.freeze({ basePath: basePathOf(given, defaultBasePath), config: raw === undefined ? given : rest })
  prepared.set(given, result)
  return result
}

/** Lazy configurations already run for a request (policy 4), by the function. */
const lazyResults = new WeakMap<Context, Map<unknown, Promise<Prepared>>>()
/** The configuration each request was last handled with (policy 5). */
const current = new WeakMap<Context, Prepared>()

/**
 * The configuration for this request: `input` itself, or what the lazy `input` returns for `c`.
 * What the function throws is thrown: it is the app's code failing, which Hono's error handler
 * answers (a 500 without a stack).
 */
export async function configFor<E extends Env>(c: Context, input: SesameConfig<E>, owner: string): Promise<Prepared> {
  let result: Prepared
  if (typeof input === "function") {
    let results = lazyResults.get(c)
    if (!results) lazyResults.set(c, (results = new Map()))
    let pending = results.get(input)
    if (!pending) {
      pending = Promise.resolve(input(c as Context<E>)).then((config) => prepare(config, `${owner} (the configuration function's result)`))
      results.set(input, pending)
    }
    result = await pending
  } else {
    result = prepare(input, owner)
  }
  current.set(c, result)
  return result
}

/**
 * Checks a configuration when a handler or middleware is made, so that a bad object fails at start
 * rather than on the first request. A function is checked on each request instead.
 */
export function checkConfig(input: unknown, owner: string): void {
  if (typeof input !== "function") prepare(input, owner)
}

/**
 * The configuration `c` was handled with by this package's handler, middleware or guards, for the
 * functions a route calls without one (`signIn`, `signOut`). Throws a `TypeError` saying what to add
 * when none ran.
 */
export function currentConfig(c: Context, owner: string): Prepared {
  const found = current.get(c)
  if (found) return found
  throw new TypeError(
    `${owner}(c, …) needs Sesame's configuration on the request: add app.use("*", sessionMiddleware(config)) before this route (or guard it with requireSession(config)).`,
  )
}

/** Whether `pathname` is the base path or below it (`/auth/x`, not `/authx`): the auth routes. */
export function isUnderBasePath(pathname: string, basePath: string): boolean {
  return pathname === basePath || pathname.startsWith(`${basePath}/`)
}
