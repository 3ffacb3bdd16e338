/**
 * The redirect of the route guards: to a fixed path of the app, checked when the guard is made.
 *
 * @module
 */

/**
 * Throws a `TypeError` unless `path` is a path on this site (`/signin`, `/login?next=home`): a
 * protocol-relative `//host` or a backslash (which browsers read as `/`) would leave the site.
 */
export function checkRedirectPath(path: unknown, owner: string): asserts path is string {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//") || /[\\\s]/.test(path)) {
    throw new TypeError(`${owner}: the redirect target must be a path on this site, such as "/signin"; got ${JSON.stringify(path)}.`)
  }
}

/** A `302` to `path`, not to be cached: whether it applies depends on the visitor's cookies. */
export function redirectResponse(path: string): Response {
  return new Response(null, { status: 302, headers: { location: path, "cache-control": "private, no-store" } })
}
