/**
 * What a framework's guard answers, the same in every integration whose guard takes
 * `{ redirectTo, allow }` (`@sesame/astro`, `@sesame/react-router`).
 *
 * Policy:
 * 1. A visitor without a session is turned away: a client that asks for JSON and not for a page
 *    (`wantsJson`) gets `401` with {@link unauthorizedBody}; a page gets a `303 See Other` (the guard
 *    may answer a form's post) to `redirectTo`, else to the core's sign-in endpoint with the way
 *    back (`signInPageUrl`, which never writes a forged host into it).
 * 2. A signed-in visitor the app's `allow` refused gets `403`: {@link forbiddenBody} as JSON, else
 *    its message as one line of plain text (not the core's error page, which speaks of signing in,
 *    to a user who is signed in).
 * 3. No answer of a guard is cached (`Cache-Control: private, no-store`): it depends on the cookies.
 *    The cookies of the session read (a cleared cookie that was no good) go on it.
 * 4. `redirectTo` is a path on this site fixed by the app (`/signin`): not another origin, not
 *    protocol-relative, no backslash or space. It is checked when the guard is made or called.
 *
 * @module
 */
import type { ResponseCookie } from "../http/cookies.js"
import { forbiddenBody, unauthorizedBody } from "../http/response.js"
import type { AuthConfig } from "../types.js"
import { isUnderPath } from "./paths.js"
import { withCookies } from "./response-cookies.js"
import { signInPageUrl, wantsJson } from "./server-actions.js"

/**
 * Throws a `TypeError` naming `owner` when `allow` is given and not a function (`allowOf` says of
 * what, in the message), or `redirectTo` is not a path on this site (policy 4).
 */
export function checkGuardOptions(options: { readonly allow?: unknown; readonly redirectTo?: unknown }, owner: string, allowOf: string): void {
  const { allow, redirectTo } = options
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`${owner}: \`allow\` must be a function of ${allowOf}; got ${allow === null ? "null" : typeof allow}.`)
  }
  if (redirectTo !== undefined && (typeof redirectTo !== "string" || !redirectTo.startsWith("/") || redirectTo.startsWith("//") || /[\\\s]/.test(redirectTo))) {
    throw new TypeError(`${owner}: \`redirectTo\` must be a path on this site, such as "/signin"; got ${JSON.stringify(redirectTo)}.`)
  }
}

/** A response of a guard: private, with the read's cookies (policy 3). */
export function guardAnswer(body: string | null, status: number, headers: Record<string, string>, cookies: readonly ResponseCookie[]): Response {
  return withCookies(new Response(body, { status, headers: { ...headers, "cache-control": "private, no-store" } }), cookies)
}

/**
 * The answer to `request` from a visitor without a session (policy 1): `page` is the path and
 * query to come back to, as the framework routes the request.
 */
export function refusedAnswer(config: AuthConfig, request: Request, redirectTo: string | undefined, page: string, cookies: readonly ResponseCookie[]): Response {
  if (wantsJson(request.headers)) return guardAnswer(JSON.stringify(unauthorizedBody), 401, { "content-type": "application/json" }, cookies)
  return guardAnswer(null, 303, { location: redirectTo ?? signInPageUrl(config, request, page) }, cookies)
}

/** The answer to a signed-in request the app's `allow` refused (policy 2). */
export function forbiddenAnswer(request: Request, cookies: readonly ResponseCookie[]): Response {
  return wantsJson(request.headers)
    ? guardAnswer(JSON.stringify(forbiddenBody), 403, { "content-type": "application/json" }, cookies)
    : guardAnswer(forbiddenBody.message, 403, { "content-type": "text/plain; charset=utf-8" }, cookies)
}

/**
 * Throws a `TypeError` naming `owner` when the guard's `redirectTo` is a path it protects itself
 * (`isProtected` of its path, matched as the integration matches a request's): every signed-out
 * visit would redirect to itself. Sesame's endpoints under `basePath` are never guarded, so the
 * built-in sign-in page is always a fine target. Nothing to check without `redirectTo`.
 */
export function checkRedirectTarget(owner: string, redirectTo: string | undefined, basePath: string | undefined, isProtected: (path: string) => boolean): void {
  if (redirectTo === undefined) return
  const target = new URL(redirectTo, "http://localhost").pathname
  if ((basePath !== undefined && isUnderPath(target, basePath)) || !isProtected(target)) return
  throw new TypeError(`${owner}: \`redirectTo\` (${JSON.stringify(redirectTo)}) is itself protected; signed-out visitors would be redirected forever.`)
}
