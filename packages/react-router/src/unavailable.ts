/**
 * What a request gets while the storage cannot be reached (a database restart, a failover): the
 * core's `503` with `Retry-After` (`unavailableAnswer`), never the sign-in redirect or the `401`
 * of a visitor without a session, and no cookie set or cleared.
 *
 * Policy:
 * 1. The answer is the core's, chosen as the core's endpoints choose: the unavailable page ("Try
 *    again in a moment", a "Try again" link to the page asked for) for a request that accepts HTML,
 *    `{ "error": "StorageUnavailable", "message" }` for any other. Never cached.
 * 2. The middleware (`sessionMiddleware`, `authorize`) answers it instead of the route, and
 *    `requireSession` throws it (a loader's thrown `Response` is React Router's way to answer
 *    early); `getSession` throws the `StorageUnavailable` itself (`isStorageUnavailable`), for the
 *    app to decide.
 *
 * @module
 */
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import type { Prepared } from "./config.js"

/** The core's answer to `request` during an outage (policy 1); a new `Response` each time. */
export function unavailableResponse(request: Request, prepared: Prepared, error: StorageUnavailable): Response {
  const answer = unavailableAnswer(prepared.config, request, error)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}
