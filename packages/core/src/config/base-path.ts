/**
 * The one rule for a base path (where the endpoints live, `/auth`, `/api/auth`), shared by the
 * core's configuration, the integrations' own options (`@sesame/solid-start`'s `prefix`) and the
 * browser clients, which build the endpoints' URLs from it. It imports nothing, so that a browser
 * bundle can take it.
 *
 * @module
 */

/**
 * Whether `value` can be a base path: a path (it starts with `/`) without a query, a fragment,
 * whitespace or an empty segment (`//`, which a browser could read as another host).
 */
export function isBasePath(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("/") && !/[?#\s]/.test(value) && !value.includes("//")
}

/** `path` without trailing slashes: `/api/auth/` and `/api/auth` are one base path (and `/` is the root, ``). */
export function normaliseBasePath(path: string): string {
  return path.replace(/\/+$/, "")
}
