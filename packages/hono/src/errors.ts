/**
 * What `signIn` and `signOut` throw, answerable by Hono when the route does not catch it.
 *
 * The core's errors are thrown to the route as they are (`CredentialsSignin`, `BadRequest`,
 * `AuthError`: `instanceof` and `type` work), so that the app shows its own message. A route that
 * lets one through would otherwise get Hono's `500 Internal Server Error` for what is the client's
 * doing: a wrong password, another site's post. So the two client errors also carry the
 * `getResponse()` that Hono's default error handler answers with (the method it reads off an
 * `HTTPException`), added to the error object rather than by wrapping it, which would hide the
 * core's class from the route's `catch`:
 * - `BadRequest` (another site's post, a malformed request): its status (`403`, `400`…) with the
 *   JSON body the core's endpoints answer it with, `{ error, message }`;
 * - `CredentialsSignin` (credentials refused, or too many attempts): `401`, and `Retry-After` for
 *   throttling; the body says no more than the core's sign-in page does.
 * Every other error is the server's: Hono logs it and answers `500`, without a stack.
 *
 * @module
 */

/** The answer Hono's error handler gives for `error`, when it is a client's error. */
function answerFor(error: Error): (() => Response) | undefined {
  const { type, status, retryAfter } = error as { type?: unknown; status?: unknown; retryAfter?: unknown }
  // By `type`, not `instanceof`: a bundle may hold more than one copy of the core.
  if (type === "BadRequest" && typeof status === "number") {
    const body = JSON.stringify({ error: (error as { error?: unknown }).error ?? "BadRequest", message: error.message })
    return () => new Response(body, { status, headers: { "content-type": "application/json", "cache-control": "no-store" } })
  }
  if (type === "CredentialsSignin") {
    const headers = new Headers({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" })
    if (typeof retryAfter === "number") headers.set("retry-after", String(retryAfter))
    return () => new Response("Sign-in failed. Check the details you entered.", { status: 401, headers })
  }
  return undefined
}

/** `error`, given Hono's `getResponse()` when it is a client's error (see the module's policy). */
export function answerable(error: unknown): unknown {
  if (!(error instanceof Error) || "getResponse" in error) return error
  const getResponse = answerFor(error)
  if (getResponse) Object.defineProperty(error, "getResponse", { value: getResponse, configurable: true })
  return error
}
