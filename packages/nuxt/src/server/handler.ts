/**
 * `sesameHandler(config)`: the route of the auth endpoints, `server/routes/auth/[...].ts`.
 *
 * Every request it is given goes to the core's web-standard `Auth()` as it is (its body too),
 * whatever the action (`session`, `csrf`, `signin`, `callback`, `signout`, the built-in pages…):
 * the core decides what exists and answers the rest, a path outside the base path too (its `400`
 * names the path). The core's own origin and CSRF checks apply to its posts. The socket's address
 * goes with the request, for the limits per client.
 *
 * @module
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { defineEventHandler, type EventHandler } from "h3"
import { prepare, use } from "./config.js"
import { webRequest } from "./request.js"

/**
 * Makes the handler of the auth route.
 *
 * @param config - the configuration. Its base path (`basePath`, else the path of `AUTH_URL`, else
 *   `/auth`) must be the route's folder. One that is not an object throws a `TypeError` here.
 * @returns an h3 event handler answering with the core's `Response`.
 *
 * @example
 * ```ts
 * // server/routes/auth/[...].ts
 * import { sesameHandler } from "@sesame/nuxt/server"
 * import { authConfig } from "../../utils/auth"
 *
 * export default sesameHandler(authConfig)
 * ```
 */
export function sesameHandler(config: AuthConfig): EventHandler<Request, Promise<Response>> {
  const prepared = prepare(config, "sesameHandler")
  return defineEventHandler(async (event) => {
    use(event, prepared)
    return Auth(webRequest(event), prepared.config)
  })
}
