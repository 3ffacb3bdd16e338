/**
 * The prefix: the path under which the auth routes live (default `/api/auth`, where SolidStart
 * serves `src/routes/api/auth/[...sesame].ts`). Shared by the server and the browser code, so it
 * imports nothing.
 *
 * @module
 */

/** Where the auth routes live unless configured otherwise. */
export const defaultPrefix = "/api/auth"

/**
 * `prefix` checked and without trailing slashes: a path such as `/api/auth` (no query, fragment,
 * spaces or empty segments), or the default. Throws a `TypeError` naming the bad value.
 */
export function normalisePrefix(prefix: unknown, owner: string): string {
  if (prefix === undefined) return defaultPrefix
  if (typeof prefix !== "string" || !prefix.startsWith("/") || /[?#\s\\]/.test(prefix) || prefix.includes("//")) {
    throw new TypeError(`${owner}: \`prefix\` must be a path such as "/api/auth" (no query, fragment or spaces); got ${JSON.stringify(prefix)}.`)
  }
  const trimmed = prefix.replace(/\/+$/, "")
  if (trimmed === "") throw new TypeError(`${owner}: \`prefix\` cannot be "/": the auth routes need a path of their own, such as "/api/auth".`)
  return trimmed
}

/** Whether `pathname` is the prefix or below it (`/api/auth/x`, not `/api/authx`). */
export function isUnderPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`)
}
