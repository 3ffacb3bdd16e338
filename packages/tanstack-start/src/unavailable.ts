/**
 * What answers while the storage cannot be reached: the core's `503` "Try again in a moment" (JSON
 * for a client that wants JSON) with `Retry-After`, never a page as signed in or out.
 *
 * @module
 */
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import type { Prepared } from "./config.js"

/** The core's answer to `request` during an outage; a new `Response` each time. */
export function unavailableResponse(request: Request, prepared: Prepared, error: StorageUnavailable): Response {
  const answer = unavailableAnswer(prepared.config, request, error)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}
