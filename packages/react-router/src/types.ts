/**
 * The types the functions of this package take and give.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"

/**
 * A session with a user: what a guarded loader or action can rely on.
 *
 * @example
 * ```ts
 * const session: AuthenticatedSession = await requireSession(args)
 * const email = session.user.email
 * ```
 */
export type AuthenticatedSession = Session & { user: User }

/**
 * What this package reads of the arguments React Router gives a loader, an action or a middleware
 * (`Route.LoaderArgs`, `Route.ActionArgs`, `Route.MiddlewareArgs`): the request, and the context.
 * With `future.v8_middleware`, `context` is one `RouterContextProvider` for the whole request
 * (middleware, loaders, actions), which is where the request's state is kept; without it, the
 * load context (a new object per request, unless the server's `getLoadContext` says otherwise).
 *
 * @example
 * ```ts
 * export async function loader(args: Route.LoaderArgs) {
 *   const routeArgs: RouteArgs = args
 *   return { user: (await getSession(routeArgs))?.user ?? null }
 * }
 * ```
 */
export interface RouteArgs {
  readonly request: Request
  readonly context?: unknown
}
