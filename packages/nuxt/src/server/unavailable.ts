/**
 * What a request gets while the storage cannot be reached (a database restart, a failover): the
 * core's `503` with `Retry-After` (`unavailableAnswer`): the "Try again in a moment" page for a
 * browser, `{ "error": "StorageUnavailable", "message" }` for a script; never the sign-in redirect
 * or the `401` of a visitor without a session, no cookie, never cached.
 *
 * @module
 */
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import type { Prepared } from "./config.js"
import { requestLike } from "./request.js"
import type { Event } from "./types.js"

/** The core's answer to `event`'s request during an outage; a new `Response` each time. */
export function unavailableResponse(event: Event, prepared: Prepared, error: StorageUnavailable): Response {
  const answer = unavailableAnswer(prepared.config, requestLike(event), error)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}
