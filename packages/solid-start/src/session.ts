/**
 * Reading the session on the server: `getSession(request, options)`, and `requireSession`, the
 * server-side guard of a protected route.
 *
 * The session is read by the core's `readSession` (`@sesame/core/integration`), through the
 * core's own `session` endpoint under the configured prefix (never a hard-coded path, which is
 * what Auth.js's SolidStart integration does), with the request's cookies and the headers the
 * core derives the origin from. So it is exactly what the browser would get from
 * `GET <prefix>/session`: the `jwt` and `session` callbacks run, a database session is looked up
 * and extended.
 *
 * It fails closed: anything but a `200` with a session object (a configuration error, an adapter
 * that throws, a malformed answer) is `null`, and the cause is logged through the configured
 * logger. But for a storage outage (the adapter's database cannot be reached: a restart, a
 * failover): nothing is known of the session then, and `null` would say "signed out" to every
 * signed-in user at once. `getSession` and `requireSession` throw the core's `StorageUnavailable`
 * instead (`status` 503, `retryAfter` seconds, `headers` with `Retry-After`), for the app's
 * `<ErrorBoundary>` or its own `try`, set no cookie, and log nothing: the core logs an outage once
 * when it begins and once when it ends. A JWT session is read without the storage, and keeps working.
 *
 * It keeps the session alive, as `@sesame/next`'s `auth()` does: the cookies the read sets (a JWT
 * session's sliding expiry, a database session's new expiry, a cleared cookie) are written onto
 * the response of the SolidStart request being handled (see `keep-alive.ts`), so an active user
 * is not signed out at the old expiry.
 *
 * `requireSession(request, options, { allow })` adds the app's own check of the signed-in session:
 * asked only once there is a user (a visitor without one gets the redirect, and `allow` is not
 * called), it lets the request on only when it resolves to `true`. Anything else throws a `403`
 * `Response`, as the redirect is thrown: `{ "error": "Forbidden", "message": "Access denied." }`
 * for a client that wants JSON (the core's `wantsJson`, as the other integrations' guards decide
 * between JSON and a page), else a one-line plain-text page; `Cache-Control: private, no-store`.
 * Not the core's `error?error=AccessDenied` page: it speaks of signing in, to a user who is signed
 * in. What `allow` throws is thrown as it is: a `StorageUnavailable` is the outage `requireSession`
 * already throws (`status` 503, for the `<ErrorBoundary>`), any other error is the app's, and the
 * request never counts as allowed.
 *
 * @module
 */
import type { AuthConfig, Session, User } from "@sesame/core"
import { forbiddenBody, isStorageUnavailable, logFor, readSession, wantsJson, type SessionRead } from "@sesame/core/integration"
import { coreConfig, type SolidAuthOptions } from "./config.js"
import { responseHeadersOf, writeSessionCookies } from "./keep-alive.js"
import { guardRedirect, guardTarget } from "./redirect.js"

/** A session with a user: what a protected route can rely on. */
export type AuthenticatedSession = Session & { user: User }

/**
 * The session of `request`, or `null` when there is none or it cannot be read; throws
 * `StorageUnavailable` while the storage cannot be reached (see the module's policy).
 *
 * @param request - the incoming request (`event.request` of an `APIEvent`, or
 *   `getRequestEvent()!.request` in a server function).
 * @param options - the configuration given to `SolidAuth` (its `prefix` is honoured; `raw` is not
 *   accepted).
 * @returns what `GET <prefix>/session` returns: the session as the `session` callback shapes it, or
 *   `null`. Called while SolidStart handles `request` (`getRequestEvent()!.request`), it also sets
 *   the refreshed session cookies on that request's response.
 */
export async function getSession(request: Request, options: SolidAuthOptions): Promise<Session | null> {
  const { config } = coreConfig(options, "getSession")
  // Before any await: where async context is emulated, the event may be lost after one.
  const headers = responseHeadersOf(request)
  const { session, cookies } = await readOrNull(config, request, "getSession")
  if (headers) writeSessionCookies(headers, cookies)
  return session
}

/**
 * The session of `request` and the cookies that keep it alive; no session and no cookie when it
 * cannot be read (logged). Throws a `StorageUnavailable` as it is (logged by the core, once).
 */
export async function readOrNull(config: AuthConfig, request: Request, owner: string): Promise<SessionRead> {
  try {
    return await readSession(config, request)
  } catch (error) {
    if (isStorageUnavailable(error)) throw error
    logFor(config).error(`${owner} could not read the session and answers null (signed out)`, error)
    return { session: null, cookies: [] }
  }
}

/** Options of {@link requireSession}. */
export interface RequireSessionOptions {
  /**
   * A path on this site to send a visitor without a session to instead of the sign-in page, used
   * as given (it gets the `callbackUrl` only when it is the sign-in page itself).
   */
  redirectTo?: string
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * session is returned only when it resolves to `true`. Called only for a session with a user; a
   * visitor without one gets the redirect as ever. Anything but `true` throws a `403` `Response`:
   * `{ "error": "Forbidden", "message": "Access denied." }` for a client that wants JSON, a
   * plain-text "Access denied." otherwise. What it throws is thrown as it is (a
   * `StorageUnavailable` during an outage, `status` 503).
   *
   * @param session - the request's session, with a user.
   * @param request - the request given to `requireSession`, for `api(request, options)` (the
   *   plugins' server functions).
   *
   * @example
   * ```ts
   * "use server"
   * // Only members whose roles grant project:create, with the organizations plugin in `plugins`.
   * export async function createProject(name: string) {
   *   const session = await requireSession(getRequestEvent()!.request, authConfig, {
   *     allow: async (session, request) => (await api(request, authConfig).hasPermission(session.organization?.id, { project: ["create"] })) === true,
   *   })
   *   // …
   * }
   * ```
   */
  allow?: (session: AuthenticatedSession, request: Request) => boolean | Promise<boolean>
}

/** The `403` thrown when `allow` refuses (see the module's policy). */
function forbidden(request: Request): Response {
  const headers = { "cache-control": "private, no-store" }
  return wantsJson(request.headers)
    ? new Response(JSON.stringify(forbiddenBody), { status: 403, headers: { ...headers, "content-type": "application/json" } })
    : new Response(forbiddenBody.message, { status: 403, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } })
}

/**
 * The server-side guard of a protected route: the session when it has a user, otherwise it throws a
 * redirect (a `302` `Response`, as `redirect()` of `@solidjs/router` makes). Thrown from a server
 * function or a `query`, the router follows it: on a server-rendered page the response becomes the
 * redirect; on a client navigation the browser is sent there.
 *
 * By default the redirect goes to the sign-in page (`pages.signIn`, else the built-in
 * `<prefix>/signin`) with `callbackUrl` set to the page asked for, so signing in leads back to it.
 * On a call from the browser (the server function's own request) that page is the one the browser
 * is on, from its same-origin `Referer`.
 *
 * With `allow`, a signed-in session it refuses throws a `403` `Response` instead of returning.
 *
 * While the storage cannot be reached it throws the core's `StorageUnavailable` (`status` 503,
 * `retryAfter`) instead: nothing is known of the session, so the visitor is not sent to sign in.
 * The app's `<ErrorBoundary>` shows it (its `retryAfter` says when to try again).
 *
 * @param guard - optional: a path on this site to send the visitor to instead (`redirectTo`), or
 *   the options `{ redirectTo?, allow? }` (see {@link RequireSessionOptions}). A target that is not
 *   a path (`https://…`, `//host`) throws a `TypeError`: it is fixed by the app, never taken from a
 *   request; so does an `allow` that is not a function.
 *
 * @example
 * ```ts
 * "use server"
 * import { getRequestEvent } from "solid-js/web"
 * import { requireSession } from "@sesame/solid-start"
 * import { authConfig } from "~/lib/auth"
 *
 * export async function accountSession() {
 *   return requireSession(getRequestEvent()!.request, authConfig)
 * }
 * ```
 */
export async function requireSession(request: Request, options: SolidAuthOptions, guard?: string | RequireSessionOptions): Promise<AuthenticatedSession> {
  const { redirectTo, allow }: RequireSessionOptions = typeof guard === "object" && guard !== null ? guard : { redirectTo: guard }
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`requireSession: \`allow\` must be a function of the session and the request; got ${allow === null ? "null" : typeof allow}.`)
  }
  const core = coreConfig(options, "requireSession")
  const target = guardTarget(options, core.prefix, redirectTo, "requireSession")
  const session = await getSession(request, options)
  if (!session?.user) throw guardRedirect(target, request, core)
  // Only `true` lets the request on; what `allow` throws is thrown as it is.
  if (allow && (await allow(session as AuthenticatedSession, request)) !== true) throw forbidden(request)
  return session as AuthenticatedSession
}
