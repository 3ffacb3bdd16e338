/**
 * The plugins' server functions for the request a page or endpoint handles: `api(context, config?)`,
 * taking the context and the configuration as `getSession(context, config?)` does.
 *
 * Policy:
 * 1. The configuration is the one the request was handled with (`sessionMiddleware`, `authorize`,
 *    the endpoint), or `config`. Without either, `api(context)` throws the `TypeError` that says
 *    what to add.
 * 2. The request the core sees is Astro's own, so a server function reads the same user, at the
 *    same origin, as `getSession(context)` does. Once the route signed out, the request has no
 *    session (session.ts, policy 6): the functions get it without its cookies.
 * 3. Nothing per plugin: `api(context).<name>(...args)` is the core's `callModuleApi`, with its
 *    errors. Unlike `getSession`, it does not fail closed: it acts, and the route must know when
 *    that did not happen. A server function sets no cookie.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import { configFor } from "./config.js"
import { signedOut } from "./cookies.js"
import type { AstroContext } from "./types.js"

/** `context`'s request as the server functions get it: without its cookies once the route signed out (policy 2). */
function requestOf(context: AstroContext): Request {
  const request = context.request
  if (!signedOut(context)) return request
  const headers = new Headers(request.headers)
  headers.delete("cookie")
  return new Request(request.url, { headers })
}

/**
 * The server functions of the configuration's plugins (`plugins`), for the request of `context`:
 * each reads the request's signed-in user (or none), as `getSession(context)` does.
 *
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is
 *   used. One that is not an object throws a `TypeError` here.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`; for their types,
 *   `api(context) as ServerFunctionsOf<typeof plugin>`.
 *
 * @example
 * ```ts
 * // src/pages/api/visits.ts
 * import type { APIContext } from "astro"
 * import { api } from "@sesame/astro"
 *
 * export const prerender = false
 * export async function POST(context: APIContext) {
 *   return Response.json(await api(context).visit())
 * }
 * ```
 */
export function api(context: AstroContext, config?: AuthConfig): ModuleApi {
  const { config: core } = configFor(context, config, "api")
  return moduleApi((name, args) => callModuleApi(requestOf(context), core, name, ...args))
}
