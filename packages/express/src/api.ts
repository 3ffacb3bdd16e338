/**
 * The plugins' server functions for the request Express is handling: `api(req, config)`, beside
 * `getSession(req, config)`, taking the request and the configuration as it does.
 *
 * Policy:
 * 1. The request the core sees is `req` as every function of this package hands it over
 *    (`requestOf`: the headers as they arrived, the path and query, the connection's scheme), so a
 *    server function reads the same user, at the same origin, as `getSession` does.
 * 2. Nothing per plugin: `api(req, config).<name>(...args)` is the core's `callModuleApi`, with
 *    its errors (a `TypeError` for a name no plugin has, `MissingAdapterMethods` for a plugin that
 *    is off). Unlike `getSession`, it does not fail closed: it acts, and the caller must know when
 *    that did not happen.
 * 3. A server function sets no cookie: the session read behind `request.user()` is not written on
 *    the response (`getSession` or `sessionLocals` keep the session alive).
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import type { ExpressRequest } from "./types.js"

/**
 * The server functions of the configuration's plugins (`plugins`), for `req`: each reads the
 * request's signed-in user (or none), as `getSession(req, config)` does.
 *
 * @param req - the Express request being handled.
 * @param config - the configuration given to {@link SesameAuth}: the very object.
 * @returns `api.<name>(...args)` runs the plugin's server function `name`. For their types,
 *   `api(req, config) as ServerFunctionsOf<typeof plugin>` (`ServerFunctionsOf` from this package
 *   or `@sesame/core`). A function of a plugin that is off (its models need an adapter with a
 *   `store`) rejects with `MissingAdapterMethods`; a name no plugin has, with a `TypeError`.
 *
 * @example
 * ```ts
 * app.get("/visits", async (req, res, next) => {
 *   try {
 *     const plugins = api(req, authConfig) as ServerFunctionsOf<typeof visits>
 *     res.json(await plugins.visit())
 *   } catch (error) {
 *     next(error)
 *   }
 * })
 * ```
 */
export function api(req: ExpressRequest, config: AuthConfig): ModuleApi {
  checkConfig(config, "api")
  return moduleApi((name, args) => {
    const { url, headers } = requestOf(req)
    return callModuleApi(new Request(url, { headers }), config, name, ...args)
  })
}
