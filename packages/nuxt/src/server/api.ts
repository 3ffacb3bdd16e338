/**
 * The plugins' server functions for the request a route handles: `api(event, config?)`.
 *
 * Policy:
 * 1. The configuration is the one the request was handled with (`sessionMiddleware`, `authorize`,
 *    the auth route), or `config`. Without either, `api(event)` throws the `TypeError` that says
 *    what to add.
 * 2. The request the core sees is the event's own (headers and URL), so a server function reads
 *    the same user as `getServerSession(event)` does. Once a route signed out, the request has no
 *    session: the functions get it without its cookies.
 * 3. Nothing per plugin: `api(event).<name>(...args)` is the core's `callModuleApi`, with its errors.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, setPeerAddress, type ModuleApi } from "@sesame/core/integration"
import { configFor, stateOf } from "./config.js"
import { requestLike } from "./request.js"
import type { Event } from "./types.js"

/** The event's request as the server functions get it (policy 2). */
function requestOf(event: Event): Request {
  const { headers, url, peer } = requestLike(event)
  const copy = new Headers(headers)
  if (stateOf(event).signedOut) copy.delete("cookie")
  const request = new Request(url, { headers: copy })
  setPeerAddress(request, peer)
  return request
}

/**
 * The server functions of the configuration's plugins (`plugins`), for the request of `event`:
 * each reads the request's signed-in user (or none), as `getServerSession(event)` does.
 *
 * @param config - optional after `sessionMiddleware` ran for the request.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`; for their types,
 *   `api(event) as ServerFunctionsOf<typeof plugin>`.
 *
 * @example
 * ```ts
 * // server/api/visits.post.ts
 * import { api } from "@sesame/nuxt/server"
 *
 * export default defineEventHandler(async (event) => api(event).visit())
 * ```
 */
export function api(event: Event, config?: AuthConfig): ModuleApi {
  const { config: core } = configFor(event, config, "api")
  return moduleApi((name, args) => callModuleApi(requestOf(event), core, name, ...args))
}
