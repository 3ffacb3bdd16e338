/**
 * `sesame(config)`: the catch-all endpoint of the auth routes, `src/pages/auth/[...sesame].ts`.
 *
 * Every request it is given goes to the core's web-standard `Auth()` as it is, whatever the action
 * (`session`, `csrf`, `signin`, `callback`, `signout`, the built-in pages…): the core decides what
 * exists and answers the rest, a path outside the base path too (its `400` names the path, which
 * tells an endpoint in one folder and a `basePath` saying another apart from a missing page). The
 * core's own origin and CSRF checks apply to its posts; Astro's `checkOrigin` (on by default for
 * server output) refuses another site's form posts before that.
 *
 * @module
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { setPeerAddress } from "@sesame/core/integration"
import { prepare, use } from "./config.js"
import { peerAddress } from "./peer.js"
import type { AstroContext } from "./types.js"

/**
 * An endpoint handler of Astro (`export const GET`), of the context Astro gives it.
 *
 * @example
 * ```ts
 * const { GET }: { GET: EndpointHandler } = sesame(authConfig)
 * ```
 */
export type EndpointHandler = (context: AstroContext) => Promise<Response>

/**
 * Makes the handlers of the auth endpoint.
 *
 * @param config - the configuration. Its base path (`basePath`, else the path of `AUTH_URL`, else
 *   `/auth`) must be the folder of the catch-all endpoint. A configuration that is not an object
 *   throws a `TypeError` here.
 * @returns `{ GET, POST }`, to export from the endpoint (Astro answers `HEAD` with `GET`).
 *
 * @example
 * ```ts
 * // src/pages/auth/[...sesame].ts
 * import { sesame } from "@sesame/astro"
 * import { authConfig } from "../../auth"
 *
 * export const prerender = false
 * export const { GET, POST } = sesame(authConfig)
 * ```
 */
export function sesame(config: AuthConfig): { GET: EndpointHandler; POST: EndpointHandler } {
  const prepared = prepare(config, "sesame")
  const handle: EndpointHandler = async (context) => {
    use(context, prepared)
    const request = context.request
    setPeerAddress(request, peerAddress(context))
    return Auth(request, prepared.config)
  }
  return { GET: handle, POST: handle }
}
