/**
 * The types the server utilities take and give.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"
import type { H3Event } from "h3"

/**
 * A session with a user: what a guarded route can rely on.
 *
 * @example
 * ```ts
 * const session = await requireSession(event)
 * if (session instanceof Response) return session
 * const email: AuthenticatedSession["user"]["email"] = session.user.email
 * ```
 */
export type AuthenticatedSession = Session & { user: User }

/**
 * What `sessionMiddleware` puts on `event.context`: `session`, the request's session or `null`.
 *
 * @example
 * ```ts
 * // server/api/hello.get.ts
 * export default defineEventHandler((event) => {
 *   const { session } = event.context as SesameContext
 *   return { hello: session?.user?.name ?? "stranger" }
 * })
 * ```
 */
export interface SesameContext {
  session: Session | null
}

/** The event every server utility takes: h3's, as Nitro hands it to a route or a middleware. */
export type Event = H3Event

// `event.context.session` is typed wherever `@sesame/nuxt/server` is imported.
declare module "h3" {
  interface H3EventContext {
    /** The request's session, set by `sessionMiddleware` (and by `authorize` on a protected path). */
    session?: Session | null
  }
}
