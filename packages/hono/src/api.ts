/**
 * The plugins' server functions for the request a route handles: `api(c, config?)`, taking the
 * context and the configuration as `getSession(c, config?)` does.
 *
 * Policy:
 * 1. The configuration is the one the request was handled with (`sessionMiddleware`, a guard or
 *    the handler), or `config` (a lazy one runs at most once per request, whoever asks first), as
 *    for `getSession`. Without either, `api(c)` throws the `TypeError` that says what to add.
 * 2. The request the core sees is Hono's own (`c.req.raw`), so a server function reads the same
 *    user, at the same origin, as `getSession(c)` does. Once the route signed out
 *    (`signOut(c, …)`), the request has no session (session.ts, policy 5): the functions get it
 *    without its cookies. After `signIn(c, …)`, it is still the request as it came.
 * 3. Nothing per plugin: `api(c).<name>(...args)` is the core's `callModuleApi`, with its errors (a
 *    `TypeError` for a name no plugin has, `MissingAdapterMethods` for a plugin that is off).
 *    Unlike `getSession`, it does not fail closed: it acts, and the route must know when that did
 *    not happen. A server function sets no cookie.
 *
 * @module
 */
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import type { Context, Env } from "hono"
import { checkConfig, configFor, currentConfig, type Prepared, type SesameConfig } from "./config.js"
import { signedOut } from "./cookies.js"

/** `c`'s request as the server functions get it: without its cookies once the route signed out (policy 2). */
function requestOf(c: Context): Request {
  const request = c.req.raw
  if (!signedOut(c)) return request
  const headers = new Headers(request.headers)
  headers.delete("cookie")
  return new Request(request.url, { headers })
}

/**
 * The server functions of the configuration's plugins (`plugins`), for the request of `c`: each
 * reads the request's signed-in user (or none), as `getSession(c)` does.
 *
 * @param config - optional after `sessionMiddleware` (or a guard, or the handler) ran for the
 *   request: theirs is used. A configuration that is not an object throws a `TypeError` here.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`. For their types,
 *   `api(c) as ServerFunctionsOf<typeof plugin>` (`ServerFunctionsOf` from this package or
 *   `@sesame/core`). A function of a plugin that is off (its models need an adapter with a
 *   `store`) rejects with `MissingAdapterMethods`; a name no plugin has, with a `TypeError`.
 *
 * @example
 * ```ts
 * app.get("/visits", async (c) => {
 *   const plugins = api(c) as ServerFunctionsOf<typeof visits>
 *   return c.json(await plugins.visit())
 * })
 * ```
 */
export function api<E extends Env = Env>(c: Context<E>, config?: SesameConfig<E>): ModuleApi {
  let known: Prepared | undefined
  if (config === undefined) known = currentConfig(c, "api")
  else checkConfig(config, "api")
  return moduleApi(async (name, args) => {
    const prepared = known ?? (await configFor(c, config!, "api"))
    return callModuleApi(requestOf(c), prepared.config, name, ...args)
  })
}
