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
 * 2. `requireSession` answers it itself. `getSession` and `sessionLocals` hand the
 *    `StorageUnavailable` to the app (thrown, or passed to `next`), whose error handlers decide:
 *    Express's default one answers `503` with `Retry-After` from the error's `status` and
 *    `headers`; {@link unavailableHandler} answers the core's page or JSON and passes every other
 *    error on.
 *
 * @module
 */
import type { ServerResponse } from "node:http"
import type { AuthConfig } from "@sesame/core"
import type { StorageUnavailable } from "@sesame/core/errors"
import { isStorageUnavailable, unavailableAnswer } from "@sesame/core/integration"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import type { ErrorMiddleware, ExpressRequest } from "./types.js"

/** Writes the core's answer to `req` during an outage on `res` (policy 1). */
export function answerUnavailable(res: ServerResponse, req: ExpressRequest, config: AuthConfig, error: StorageUnavailable): void {
  const answer = unavailableAnswer(config, requestOf(req), error)
  res.statusCode = answer.status
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value)
  res.end(answer.body)
}

/**
 * An error handler for after your routes: a `StorageUnavailable` (what `getSession` throws and
 * `sessionLocals` passes on while the storage cannot be reached) gets the core's `503` with
 * `Retry-After`: the "Try again in a moment" page for a page, JSON for a client that wants JSON.
 * Every other error goes on to the next error handler, as does one whose response was begun.
 *
 * @param config - the configuration given to {@link SesameAuth}: its language catalogue and theme
 *   make the page.
 *
 * @example
 * ```ts
 * app.use(sessionLocals(authConfig))
 * // …your routes…
 * app.use(unavailableHandler(authConfig))
 * ```
 */
export function unavailableHandler(config: AuthConfig): ErrorMiddleware {
  checkConfig(config, "unavailableHandler")
  // Four parameters: Express calls a middleware with an error only when it declares them all.
  return (error, req, res, next) => {
    if (!isStorageUnavailable(error) || res.headersSent) {
      next(error)
      return
    }
    answerUnavailable(res, req, config, error)
  }
}
