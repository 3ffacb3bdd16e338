/**
 * `sesame(config)`: the handlers of the server route of the auth endpoints, `src/routes/auth/$.ts`.
 *
 * Every request the route is given goes to the core's web-standard `Auth()` as it is, whatever the
 * action (`session`, `csrf`, `signin`, `callback`, `signout`, the built-in pages…): the core decides
 * what exists and answers the rest, a path outside the base path too (its `400` names the path,
 * which tells a route at one path and a `basePath` saying another apart). The core's own origin and
 * CSRF checks apply to its posts. Its response goes to the browser as it is: status, `Set-Cookie`
 * lines and body.
 *
 * @module
 */
import { Auth, type AuthConfig } from "@sesame/core"
import { prepare, use } from "./config.js"

/** A handler of a TanStack Start server route, of what TanStack Start gives it. */
export type ServerRouteHandler = (ctx: { request: Request }) => Promise<Response>

/**
 * Makes the handlers of the auth server route.
 *
 * @param config - the configuration. Its base path (`basePath`, else the path of `AUTH_URL`, else
 *   `/auth`) must be the path of the route. A configuration that is not an object throws a
 *   `TypeError` here.
 * @returns `{ GET, POST }`, for `server.handlers` (TanStack Start answers `HEAD` with `GET`).
 *
 * @example
 * ```ts
 * // src/routes/auth/$.ts
 * import { createFileRoute } from "@tanstack/react-router"
 * import { sesame } from "@sesame/tanstack-start"
 * import { authConfig } from "../../auth"
 *
 * export const Route = createFileRoute("/auth/$")({
 *   server: { handlers: sesame(authConfig) },
 * })
 * ```
 */
export function sesame(config: AuthConfig): { GET: ServerRouteHandler; POST: ServerRouteHandler } {
  const prepared = prepare(config, "sesame")
  const handle: ServerRouteHandler = async ({ request }) => {
    use(request, prepared)
    return Auth(request, prepared.config)
  }
  return { GET: handle, POST: handle }
}
