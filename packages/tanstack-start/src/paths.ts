/**
 * The paths TanStack Start routes a request by, for the guard and the session middleware.
 *
 * Policy:
 * 1. TanStack Router matches paths in any case (`caseSensitive` is off by default), after decoding
 *    them (`decodeURI` per segment) and without a trailing slash. A guard must see every such form:
 *    the core's `routedForms`, of the URL's raw path and of the path TanStack Start normalized.
 *    A path that does not decode is protected rather than guessed at (TanStack Start answers it `400`).
 * 2. Everything whose every form is under the base path is Sesame's own server route: the session
 *    is not read for it (its answer could carry a sign-out's cleared cookie, which a renewed one
 *    written beside it would undo), and no guard protects it (it is how a visitor signs in).
 *
 * @module
 */
import { foldedPath, isUnderPath, routedForms } from "@sesame/core/integration"

/** Every form of the request's path TanStack Start may route (policy 1); null when one does not decode. */
export function formsOf(request: Request, normalized?: string): string[] | null {
  const raw = routedForms(new URL(request.url).pathname, true)
  if (raw === null) return null
  if (normalized === undefined) return raw
  const more = routedForms(normalized, true)
  return more === null ? null : [...new Set([...raw, ...more])]
}

/** Whether the request is for Sesame's own server route under `basePath` (policy 2). */
export function isAuthRoute(forms: readonly string[] | null, basePath: string): boolean {
  if (forms === null) return false
  const base = foldedPath(basePath)
  return forms.every((path) => isUnderPath(foldedPath(path), base))
}

/** The path and query to come back to after signing in: the request's own. */
export function pageOf(request: Request): string {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}
