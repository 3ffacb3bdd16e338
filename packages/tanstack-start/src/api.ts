/**
 * The plugins' server functions for the request TanStack Start is handling: `api(config?)`.
 *
 * Policy:
 * 1. The configuration is the one the request was handled with (`sessionMiddleware`, `authorize`,
 *    the server route), or `config`. Without either, `api()` throws the `TypeError` that says what
 *    to add.
 * 2. The request the core sees is TanStack Start's own, so a plugin's function reads the same user,
 *    at the same origin, as `getSession()` does. Once a server function signed out, the request has
 *    no session: the functions get it without its cookies.
 * 3. Nothing per plugin: `api().<name>(...args)` is the core's `callModuleApi`, with its errors.
 *    Unlike `getSession`, it does not fail closed: it acts, and the caller must know when that did
 *    not happen.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import { configFor, currentRequest, stateOf } from "./config.js"

/** The request as the plugins' functions get it: without its cookies once it signed out (policy 2). */
function requestFor(request: Request): Request {
  if (!stateOf(request).signedOut) return request
  const headers = new Headers(request.headers)
  headers.delete("cookie")
  return new Request(request.url, { headers })
}

/**
 * The plugins' server functions (`listApiKeys`, `createOrganization`, …) for the signed-in user of
 * the request, in a server function or a server route.
 *
 * @param config - optional after `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * import type { ServerFunctionsOf } from "@sesame/tanstack-start"
 *
 * export const listKeys = createServerFn({ method: "GET" }).handler(() =>
 *   (api() as ServerFunctionsOf<typeof authConfig>).listApiKeys(),
 * )
 * ```
 */
export function api(config?: AuthConfig): ModuleApi {
  const request = currentRequest("api")
  const { config: core } = configFor(request, config, "api")
  return moduleApi((name, functionArgs) => callModuleApi(requestFor(request), core, name, ...functionArgs))
}
