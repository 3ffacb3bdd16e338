/**
 * What a request gets while the storage cannot be reached (a database restart, a failover): the
 * core's `503` with `Retry-After` (`unavailableAnswer`), never the sign-in redirect or the `401`
 * of a visitor without a session, and no cookie set or cleared.
 *
 * Policy:
 * 1. The answer is the core's, chosen as the core's endpoints choose: the unavailable page ("Try
 *    again in a moment", in the visitor's language, the configuration's theme, a strict
 *    Content-Security-Policy, a "Try again" link to the page asked for) for a request that accepts
 *    HTML (a browser's), `{ "error": "StorageUnavailable", "message" }` for any other (a script's
 *    `fetch`, `curl`). Never cached.
 * 2. The middleware (`sessionMiddleware`, `requireSession`) and `assertSession` throw Hono's
 *    `HTTPException(503)` holding that answer, as Hono's own middleware refuse a request
 *    (`bearerAuth`, `jwt`): Hono's error handler answers with it, an app's `onError` that answers
 *    `HTTPException`s with `err.getResponse()` too, and the `StorageUnavailable` is its `cause`.
 * 3. `getSession` throws the `StorageUnavailable` itself (`isStorageUnavailable`), given the
 *    `getResponse()` that Hono's default error handler answers with (as `errors.ts` does for the
 *    client errors of `signIn`): a route that does not catch it gets the same answer, not a `500`.
 *
 * @module
 */
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import type { Context } from "hono"
import { HTTPException } from "hono/http-exception"
import type { Prepared } from "./config.js"

/** The core's answer to `c`'s request during an outage (policy 1); a new `Response` each time. */
function unavailableResponse(c: Context, prepared: Prepared, error: StorageUnavailable): Response {
  const answer = unavailableAnswer(prepared.config, { headers: c.req.raw.headers, url: c.req.url }, error)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}

/** The `HTTPException(503)` the middleware and `assertSession` throw (policy 2). */
export function unavailableException(c: Context, prepared: Prepared, error: StorageUnavailable): HTTPException {
  return new HTTPException(503, { res: unavailableResponse(c, prepared, error), message: error.message, cause: error })
}

/** `error`, answerable by Hono's default error handler with the core's answer to `c` (policy 3). */
export function answerableUnavailable(c: Context, prepared: Prepared, error: StorageUnavailable): StorageUnavailable {
  Object.defineProperty(error, "getResponse", { value: () => unavailableResponse(c, prepared, error), configurable: true })
  return error
}
