/**
 * What a request gets while the storage cannot be reached (a database restart, a failover): the
 * core's `503` with `Retry-After` (`unavailableAnswer`), never the sign-in redirect or the `401`
 * a visitor without a session gets, and no cookie set or cleared.
 *
 * Policy:
 * 1. The answer is the core's, chosen as the core's endpoints choose: the unavailable page ("Try
 *    again in a moment", in the visitor's language, the configuration's theme, a strict
 *    Content-Security-Policy, a "Try again" link to the page asked for) for a request that accepts
 *    HTML (a browser's), `{ "error": "StorageUnavailable", "message" }` for any other (a script's
 *    `fetch`, `curl`). Never cached.
 * 2. `requireSession` answers it itself. `getSession` and `sessionHook` hand the
 *    `StorageUnavailable` to the app (thrown, or to Fastify's error handling), whose error handler
 *    decides: Fastify's default one answers `503` with `Retry-After` from the error's `status` and
 *    `headers`; {@link unavailableHandler} answers the core's page or JSON and hands every other
 *    error on to the parent's error handler.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import type { StorageUnavailable } from "@sesame/core/errors"
import { isStorageUnavailable, unavailableAnswer } from "@sesame/core/integration"
import type { FastifyReply, FastifyRequest } from "fastify"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"

/** Sends the core's answer to `request` during an outage on `reply` (policy 1). */
export function answerUnavailable(reply: FastifyReply, request: FastifyRequest, config: AuthConfig, error: StorageUnavailable): void {
  const answer = unavailableAnswer(config, requestOf(request), error)
  reply.code(answer.status).headers(answer.headers).send(answer.body)
}

/**
 * An error handler, for `app.setErrorHandler(…)`: a `StorageUnavailable` (what `getSession` throws
 * and `sessionHook` hands on while the storage cannot be reached) gets the core's `503` with
 * `Retry-After`: the "Try again in a moment" page for a page, JSON for a client that wants JSON.
 * Every other error is thrown on, to the parent's error handler (Fastify's default one at the
 * root), as is one whose reply was begun.
 *
 * @param config - the configuration given to the {@link sesame} plugin: its language catalogue
 *   and theme make the page.
 *
 * @example
 * ```ts
 * app.addHook("onRequest", sessionHook(authConfig))
 * app.setErrorHandler(unavailableHandler(authConfig))
 * ```
 */
export function unavailableHandler(config: AuthConfig): (error: unknown, request: FastifyRequest, reply: FastifyReply) => void {
  checkConfig(config, "unavailableHandler")
  return (error, request, reply) => {
    if (!isStorageUnavailable(error) || reply.sent) throw error
    answerUnavailable(reply, request, config, error)
  }
}
