/**
 * What a request gets while the storage cannot be reached (a database restart, a failover): the
 * core's `503` with `Retry-After` (`unavailableAnswer`), never the sign-in redirect or the `401`
 * of a visitor without a session, and no cookie set or cleared.
 *
 * Policy:
 * 1. `event.locals.auth()` rejects with the `StorageUnavailable` (session.ts), and the request
 *    remembers it.
 * 2. `requireSession(event)`, called from a `load`, an action or a `+server.ts`, throws SvelteKit's
 *    `error(503, { error: "StorageUnavailable", message })`: an expected error, which SvelteKit
 *    neither logs nor hands to `handleError`, and which a client-side navigation shows on the
 *    app's error page with that status and message.
 * 3. The `handle` hook answers a page's request (not SvelteKit's `__data.json`) that ended in a
 *    `503` or `500` after `locals.auth()` met the outage, or a later hook that let the
 *    `StorageUnavailable` through, with the core's answer in place of SvelteKit's error page: the
 *    "Try again in a moment" page (the visitor's language, the configuration's theme, a strict
 *    Content-Security-Policy, a "Try again" link to the page asked for), or JSON for a client that
 *    does not accept HTML, with `Retry-After` and no cookie. A route that caught the outage and
 *    answered otherwise keeps its answer, and so do the requests whose answer SvelteKit's client
 *    reads in its own format (a client-side navigation's `__data.json`, a `use:enhance` form's
 *    action): SvelteKit's answer there carries the `503` and the message to the app's error page,
 *    or to the form's `result`.
 * 4. The `authorize` hook answers the same itself, before SvelteKit routes the request; to a
 *    client-side navigation's `__data.json`, JSON, which SvelteKit's client reads as the error.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer, unavailableBody, type RequestLike } from "@sesame/core/integration"
import { error, type RequestEvent } from "@sveltejs/kit"

/** The request as the core's answer is chosen for: SvelteKit's own data requests get JSON (policy 4). */
function answeredRequest(event: RequestEvent, json: boolean): RequestLike {
  if (!json) return event.request
  const headers = new Headers(event.request.headers)
  headers.set("accept", "application/json")
  return { url: event.request.url, headers }
}

/** Whether SvelteKit's client reads the answer to `event` in its own format: a data request, an enhanced form's action (policy 3). */
export function answeredBySvelteKit(event: RequestEvent): boolean {
  return event.isDataRequest || (event.request.method === "POST" && event.request.headers.get("x-sveltekit-action") === "true")
}

/** The core's answer to `event` during an outage, as a `Response` (policy 3, 4). */
export function unavailableResponse(config: AuthConfig, event: RequestEvent, cause: StorageUnavailable): Response {
  const answer = unavailableAnswer(config, answeredRequest(event, event.isDataRequest), cause)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}

/** Throws SvelteKit's `error(503)` with the core's JSON body, `{ error: "StorageUnavailable", message }` (policy 2). */
export function unavailableError(cause: StorageUnavailable): never {
  error(503, unavailableBody(cause))
}
