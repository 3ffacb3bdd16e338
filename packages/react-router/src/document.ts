/**
 * A redirect into Sesame's own pages loads a document.
 *
 * The guard's redirect to the sign-in endpoint, and `signIn`'s to the sign-in or verify-request
 * page, go to the resource route under the base path. After a client-side navigation or a
 * `<Form>`'s fetch, React Router's browser router would follow such a redirect itself, fetching
 * `<path>.data` from a route that answers a page, not data (and with `v8_passThroughRequests`, a
 * path the core does not know). `X-Remix-Reload-Document` (React Router's `redirectDocument`) makes
 * it load the page as a document instead. A redirect to one of the app's own pages (`redirectTo`)
 * stays a client-side navigation.
 *
 * @module
 */
import { isUnderPath } from "@sesame/core/integration"
import type { Prepared } from "./config.js"

/** `response`, a redirect, marked to load a document when it leads under the base path. */
export function reloadingIntoSesame(response: Response, prepared: Prepared): Response {
  const location = response.headers.get("location")
  if (location === null) return response
  let path: string
  try {
    path = new URL(location, "http://localhost").pathname
  } catch {
    return response
  }
  if (isUnderPath(path, prepared.basePath)) response.headers.set("x-remix-reload-document", "true")
  return response
}
