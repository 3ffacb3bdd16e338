/**
 * `SolidAuth(config)`: the `GET` and `POST` handlers of the catch-all auth route.
 *
 * Every request under the prefix goes to core's `Auth()` as it is, whatever the action (`session`,
 * `signin`, `callback`, `webauthn-options`…): core decides what exists and answers the rest with a
 * 4xx. The route is found from the request URL rather than the route's catch-all parameter, whose
 * shape SolidStart does not promise (it arrives as one string joined with `/`).
 *
 * @module
 */
import { Auth } from "@sesame/core"
import { setPeerAddress } from "@sesame/core/integration"
import { coreConfig, type SolidAuthConfig } from "./config.js"
import type { RequestEventLike } from "./event.js"
import { isUnderPrefix } from "./prefix.js"

/** A route handler: a `Response`, or undefined for a request outside the prefix. */
export type SolidAuthHandler = (event: RequestEventLike) => Promise<Response | undefined>

/** The handlers to export from `src/routes/api/auth/[...sesame].ts`. */
export interface SolidAuthHandlers {
  readonly GET: SolidAuthHandler
  readonly POST: SolidAuthHandler
}

/**
 * Makes the handlers of the auth route.
 *
 * @param config - core's configuration plus `prefix` (default `/api/auth`), which must be where the
 *   route lives. A bad `prefix` throws a `TypeError` here, when the route module loads.
 * @returns `{ GET, POST }`. Each takes SolidStart's `APIEvent` and resolves to core's `Response`,
 *   or to undefined when the request's path is outside the prefix (the route is mounted elsewhere).
 *
 * @example
 * ```ts
 * // src/routes/api/auth/[...sesame].ts
 * import { SolidAuth } from "@sesame/solid-start"
 * import { authConfig } from "~/lib/auth"
 *
 * export const { GET, POST } = SolidAuth(authConfig)
 * ```
 */
export function SolidAuth(config: SolidAuthConfig): SolidAuthHandlers {
  const { prefix, config: core } = coreConfig(config, "SolidAuth")
  const handle: SolidAuthHandler = async (event) => {
    const { request } = event
    if (!isUnderPrefix(new URL(request.url).pathname, prefix)) return undefined
    // SolidStart's event says the socket's address, for the limits per client.
    setPeerAddress(request, (event as { clientAddress?: string }).clientAddress)
    return Auth(request, core)
  }
  return Object.freeze({ GET: handle, POST: handle })
}
