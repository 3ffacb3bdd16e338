/**
 * The plugins' server functions for the request a loader or action handles: `api(args, config?)`,
 * taking the arguments and the configuration as `getSession(args, config?)` does.
 *
 * Policy:
 * 1. The configuration is the one the request was handled with (`sessionMiddleware`, `authorize`,
 *    the resource route), or `config`. Without either, `api(args)` throws the `TypeError` that says
 *    what to add.
 * 2. The request the core sees is React Router's own, so a server function reads the same user, at
 *    the same origin, as `getSession(args)` does. Once an action signed out, the request has no
 *    session (session.ts, policy 5): the functions get it without its cookies.
 * 3. Nothing per plugin: `api(args).<name>(...args)` is the core's `callModuleApi`, with its
 *    errors. Unlike `getSession`, it does not fail closed: it acts, and the route must know when
 *    that did not happen. A server function sets no cookie.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import { configFor } from "./config.js"
import { signedOut } from "./cookies.js"
import type { RouteArgs } from "./types.js"

/** The request as the server functions get it: without its cookies once an action signed out (policy 2). */
function requestOf(args: RouteArgs): Request {
  const request = args.request
  if (!signedOut(args)) return request
  const headers = new Headers(request.headers)
  headers.delete("cookie")
  return new Request(request.url, { headers })
}

/**
 * The server functions of the configuration's plugins (`plugins`), for the request of `args`:
 * each reads the request's signed-in user (or none), as `getSession(args)` does.
 *
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is
 *   used. One that is not an object throws a `TypeError` here.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`; for their types,
 *   `api(args) as ServerFunctionsOf<typeof plugin>`.
 *
 * @example
 * ```ts
 * // app/routes/api.visits.ts
 * import { api } from "@sesame/react-router"
 * import type { Route } from "./+types/api.visits"
 *
 * export async function action(args: Route.ActionArgs) {
 *   return Response.json(await api(args).visit())
 * }
 * ```
 */
export function api(args: RouteArgs, config?: AuthConfig): ModuleApi {
  const { config: core } = configFor(args, config, "api")
  return moduleApi((name, functionArgs) => callModuleApi(requestOf(args), core, name, ...functionArgs))
}
