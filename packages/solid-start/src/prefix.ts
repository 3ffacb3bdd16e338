/**
 * The prefix: the path under which the auth routes live (default `/api/auth`, where SolidStart
 * serves `src/routes/api/auth/[...sesame].ts`). It is the core's `basePath`, checked and written by
 * the core's rule (`@sesame/core/client`, which a browser bundle can take: this module is shared
 * by the server and the browser code), with two rules of SolidStart's own: no backslash (browsers
 * read it as `/`), and not `/` (the auth routes need a path of their own).
 *
 * @module
 */
import { isBasePath, normaliseBasePath } from "@sesame/core/client"

/** Where the auth routes live unless configured otherwise. */
export const defaultPrefix = "/api/auth"

/**
 * `prefix` checked and without trailing slashes: a path such as `/api/auth` (no query, fragment,
 * spaces or empty segments), or the default. Throws a `TypeError` naming the bad value.
 */
export function normalisePrefix(prefix: unknown, owner: string): string {
  if (prefix === undefined) return defaultPrefix
  if (!isBasePath(prefix) || prefix.includes("\\")) {
    throw new TypeError(`${owner}: \`prefix\` must be a path such as "/api/auth" (no query, fragment or spaces); got ${JSON.stringify(prefix)}.`)
  }
  const trimmed = normaliseBasePath(prefix)
  if (trimmed === "") throw new TypeError(`${owner}: \`prefix\` cannot be "/": the auth routes need a path of their own, such as "/api/auth".`)
  return trimmed
}

/** Whether `pathname` is the prefix or below it (`/api/auth/x`, not `/api/authx`). */
export function isUnderPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`)
}
