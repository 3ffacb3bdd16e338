/**
 * The types an app declares its Hono instance with.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"

/** A session with a user: what a guarded route can rely on. */
export type AuthenticatedSession = Session & { user: User }

/**
 * The context variables this package sets: `c.get("session")`, the request's session or `null`
 * (set by `sessionMiddleware`, and by `requireSession` for the routes it guards).
 *
 * @example
 * ```ts
 * const app = new Hono<{ Variables: SesameVariables }>()
 * ```
 */
export interface SesameVariables {
  session: Session | null
}

/** The variables of a route behind `requireSession`: the session is there, with a user. */
export interface AuthenticatedVariables {
  session: AuthenticatedSession
}
