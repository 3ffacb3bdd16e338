/**
 * What the package adds to Fastify's types, and the shape of the hooks it makes.
 *
 * `request.session` is declared on every `FastifyRequest` (declaration merging, as Fastify's own
 * plugins declare their decorators), so that it is typed wherever the app reads it. It is `null`
 * until a hook of this package read the session of the request: `sessionHook`, `requireSession`,
 * or a call of `getSession`.
 *
 * @module
 */
import type { Session, User } from "@sesame/core"
import type { FastifyReply, FastifyRequest } from "fastify"

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The request's Sesame session, or `null`: set by `sessionHook(config)` for every request it
     * runs for, by `requireSession(config)` (always with a user, behind the guard) and by
     * `getSession(request, reply, config)`. `null` before any of them ran, and for a visitor
     * without a session.
     */
    session: Session | null
  }
}

/** A session with a user: what a route behind `requireSession` can rely on. */
export type AuthenticatedSession = Session & { user: User }

/**
 * A request hook of this package, for `onRequest` or `preHandler` (on the app, in a plugin, or on a
 * route: `{ preHandler: requireSession(config) }`). Callback-style on purpose: a hook that answers
 * the request never calls `done`, so neither the later hooks nor the route run, whatever `onSend`
 * hooks the app has (an `async` hook's chain goes on once its promise settles).
 */
export type SesameHook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void
