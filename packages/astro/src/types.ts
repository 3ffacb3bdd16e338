/**
 * The types an app declares its `Astro.locals` with, and the context every function of this
 * package takes.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"

/**
 * A session with a user: what a guarded page or endpoint can rely on.
 *
 * @example
 * ```ts
 * const session = await requireSession(Astro)
 * if (session instanceof Response) return session
 * const email: AuthenticatedSession["user"]["email"] = session.user.email
 * ```
 */
export type AuthenticatedSession = Session & { user: User }

/**
 * What `sessionMiddleware` puts on `Astro.locals` / `context.locals`: `session`, the request's
 * session or `null` (`null` too on a prerendered page, which has no visitor).
 *
 * @example
 * ```ts
 * // src/env.d.ts
 * type SesameLocals = import("@sesame/astro").SesameLocals
 *
 * declare namespace App {
 *   interface Locals extends SesameLocals {}
 * }
 * ```
 */
export interface SesameLocals {
  session: Session | null
}

/**
 * What this package reads of Astro's context: both an endpoint's or middleware's `APIContext` and
 * a page's `Astro` have these, and their `locals` is one object for the whole request (Astro's
 * `RenderContext` hands the same object to the middleware, the endpoint and the page), which is
 * where the request's state is kept.
 *
 * @example
 * ```ts
 * async function userName(context: AstroContext) {
 *   return (await getSession(context))?.user?.name ?? "stranger"
 * }
 * ```
 */
export interface AstroContext {
  readonly request: Request
  readonly url: URL
  readonly locals: object
  /** Throws where Astro cannot tell it (a prerendered page, an adapter without it). */
  readonly clientAddress: string
  /** Whether the route is rendered at build time. */
  readonly isPrerendered?: boolean
}
