/**
 * Requests to the core's endpoints for `auth(req, res)` and the server functions, with the
 * browser's headers and cookies. (`auth()` and the guard read the session through `readSession`,
 * the server actions go through `signInFromServer` and its siblings, of `@sesame/core/integration`.)
 *
 * @module
 */
import type { Prepared } from "./config.js"
import { publicOrigin } from "./origin.js"

/** Headers of the browser's request that must not reach the core's internal request. */
const dropped = ["content-length", "content-type", "transfer-encoding", "x-auth-return-redirect"]

/** `name=value; …` from a list of cookies, values percent-encoded as browsers send them. */
export function cookieHeader(cookies: Iterable<{ name: string; value: string }>): string {
  return [...cookies].map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
}

/** A GET request to `<origin><basePath>/<path>` carrying the browser's headers. */
export function coreRequest(prepared: Prepared, browserHeaders: Headers, path: string): Request {
  const headers = new Headers(browserHeaders)
  for (const name of dropped) headers.delete(name)
  const origin = publicOrigin(prepared, headers, "http://localhost")
  return new Request(`${origin}${prepared.basePath}/${path}`, { headers })
}
