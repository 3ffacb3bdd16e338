/**
 * `sesame(config)`: the resource route of the auth endpoints, `app/routes/auth.ts` at
 * `route("auth/*", "routes/auth.ts")`.
 *
 * Every request it is given goes to the core's web-standard `Auth()` as it is, whatever the action
 * (`session`, `csrf`, `signin`, `callback`, `signout`, the built-in pages…): the core decides what
 * exists and answers the rest, a path outside the base path too (its `400` names the path, which
 * tells a route at one path and a `basePath` saying another apart). The core's own origin and CSRF
 * checks apply to its posts. A resource route's response goes to the browser as it is: its status,
 * its `Set-Cookie` lines and its body.
 *
 * @module
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { prepare, use } from "./config.js"
import type { RouteArgs } from "./types.js"

/**
 * A loader or an action of a resource route, of the arguments React Router gives it.
 *
 * @example
 * ```ts
 * const { loader }: { loader: ResourceHandler } = sesame(authConfig)
 * ```
 */
export type ResourceHandler = (args: RouteArgs) => Promise<Response>

/**
 * Makes the loader and the action of the auth resource route.
 *
 * @param config - the configuration. Its base path (`basePath`, else the path of `AUTH_URL`, else
 *   `/auth`) must be the path of the route. A configuration that is not an object throws a
 *   `TypeError` here.
 * @returns `{ loader, action }`, to export from the route module one by one (React Router answers
 *   `HEAD` with the loader). Not as `export const { loader, action } = …`: React Router takes
 *   `loader` and `action` out of the browser's bundle, and refuses to build a module that exports
 *   them destructured ("Cannot remove destructured export").
 *
 * @example
 * ```ts
 * // app/routes/auth.ts, with route("auth/*", "routes/auth.ts") in app/routes.ts
 * import { sesame } from "@sesame/react-router"
 * import { authConfig } from "../auth.server"
 *
 * const auth = sesame(authConfig)
 * export const loader = auth.loader
 * export const action = auth.action
 * ```
 */
export function sesame(config: AuthConfig): { loader: ResourceHandler; action: ResourceHandler } {
  const prepared = prepare(config, "sesame")
  const handle: ResourceHandler = async (args) => {
    use(args, prepared)
    return Auth(args.request, prepared.config)
  }
  return { loader: handle, action: handle }
}
