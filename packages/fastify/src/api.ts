/**
 * The plugins' server functions for the request Fastify is handling: `api(request, config)`,
 * beside `getSession(request, reply, config)`.
 *
 * Policy:
 * 1. The request the core sees is `request` as every function of this package hands it over
 *    (`requestOf`: the headers as they arrived, the path and query, the connection's scheme, the
 *    socket's address), so a server function reads the same user, at the same origin, as
 *    `getSession` does.
 * 2. Nothing per plugin: `api(request, config).<name>(...args)` is the core's `callModuleApi`, with
 *    its errors (a `TypeError` for a name no plugin has, `MissingAdapterMethods` for a plugin that
 *    is off). Unlike `getSession`, it does not fail closed: it acts, and the caller must know when
 *    that did not happen.
 * 3. A server function sets no cookie: the session read behind `request.user()` is not written on
 *    the reply (`getSession` or `sessionHook` keep the session alive).
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, setPeerAddress, type ModuleApi } from "@sesame/core/integration"
import type { FastifyRequest } from "fastify"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"

/**
 * The server functions of the configuration's plugins (`plugins`), for `request`: each reads the
 * request's signed-in user (or none), as `getSession(request, reply, config)` does.
 *
 * @param request - the Fastify request being handled.
 * @param config - the configuration given to the {@link sesame} plugin: the very object.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`. For their types,
 *   `api(request, config) as ServerFunctionsOf<typeof plugin>` (`ServerFunctionsOf` from this
 *   package or `@sesame/core`). A function of a plugin that is off (its models need an adapter
 *   with a `store`) rejects with `MissingAdapterMethods`; a name no plugin has, with a `TypeError`.
 *
 * @example
 * ```ts
 * app.get("/visits", async (request) => {
 *   const plugins = api(request, authConfig) as ServerFunctionsOf<typeof visits>
 *   return plugins.visit()
 * })
 * ```
 */
export function api(request: FastifyRequest, config: AuthConfig): ModuleApi {
  checkConfig(config, "api")
  return moduleApi((name, args) => {
    const { url, headers, peer } = requestOf(request)
    const web = new Request(url, { headers })
    // The socket's address travels with the request, for a plugin's limits per client.
    setPeerAddress(web, peer)
    return callModuleApi(web, config, name, ...args)
  })
}
