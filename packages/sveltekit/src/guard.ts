/**
 * Protected routes, in both forms the spec asks for: `requireSession(event)`, which a `load`, a
 * form action or a `+server.ts` handler calls, and `authorize({ protect })`, a hook for
 * `sequence(handle, authorize(…))` that guards paths before SvelteKit renders anything (so also
 * pages rendered only in the browser).
 *
 * Policy:
 * 1. A visitor without a session (or a session without a user) is sent to the sign-in page with
 *    the way back: the core's `<basePath>/signin?callbackUrl=<path>` (`signInPageUrl`), which
 *    shows the built-in page or forwards to `pages.signIn`, so that decision stays in the core.
 *    The way back is the path and query asked for, never a URL from a header; leading slashes
 *    collapse (`//evil.example` comes back as `/evil.example`). The URL carries the app's origin
 *    by the core's rule (`AUTH_URL`, a trusted `Host`, a loopback `Host`), else it is a path: a
 *    forged `Host` is never written into it.
 * 2. A client that asks for JSON and not a page (`fetch` with `Accept: application/json`, or
 *    `X-Requested-With`; `wantsJson`) gets `401` with `{ "error": "Unauthorized", "message": "Sign
 *    in first." }` instead of a redirect it could not use: SvelteKit's error shape (`message`,
 *    what `page.error` holds) and the `error` of the other integrations' and the core's own `401`,
 *    so that one client reads any of them.
 * 3. An explicit `redirectTo` is a path on this site fixed by the app, checked when the guard is
 *    made or called, and used as it is.
 * 4. The hook matches paths as SvelteKit routes them, after percent-decoding: `/%61dmin` is
 *    `/admin`. A path that does not decode is treated as protected. The endpoints under the base
 *    path are never guarded (they are how a visitor signs in): `handle`, which must run first,
 *    answers them without going on to the next hook. A remote function's call is matched by the
 *    path it is sent to (`/_app/remote/<id>`), never by the page SvelteKit puts in `event.url` from
 *    the caller's own `x-sveltekit-pathname` header: a caller picks that header, and a guard that
 *    read it would refuse or let through the same call as the caller likes. A remote function
 *    checks the session itself (`requireSession`), or the app protects `/_app/remote`.
 * 5. Redirects are `303 See Other`, as in every integration: a guard may answer a form's post (an
 *    action), and only `303` tells every client to follow with a GET; caches do not keep it. The
 *    hook's also say `Cache-Control: private, no-store`, since whether they apply depends on the
 *    visitor's cookies. The cookies of the session read (a cleared cookie that was no good) go on
 *    the answer.
 * 6. While the storage cannot be reached (`StorageUnavailable`), nothing is known of the session:
 *    neither the redirect nor the `401`, which would sign every user out for the length of a
 *    database restart, but the core's `503` with `Retry-After` (`unavailable.ts`): `requireSession`
 *    throws SvelteKit's `error(503)`, which the `handle` hook answers with the core's "Try again in
 *    a moment" page (or JSON); `authorize` answers it itself. No cookie. Without a session cookie
 *    a database session is not looked up: the visitor is signed out, and policy 1 applies.
 * 7. With `allow` (an option of both guards), a signed-in request goes on only when
 *    `allow(session, event)` resolves to `true`. It is asked only once there is a user: a visitor
 *    without one is answered by policy 1 or 2, and `allow` is not called. Anything but `true` is a
 *    refusal with `403` and `{ error: "Forbidden", message: "Access denied." }`, the shape of the
 *    `401`: `requireSession` throws SvelteKit's `error(403, …)`, which SvelteKit answers as any
 *    error of a `load` or `+server.ts` (JSON to a JSON client, the app's `+error.svelte` for a
 *    page, `page.error` on a client-side navigation); the hook, which runs before SvelteKit
 *    renders, answers that JSON to a JSON client (policy 2's `wantsJson`) and to SvelteKit's data
 *    requests (which its client reads as the error), else a one-line plain-text page, with
 *    `Cache-Control: private, no-store` and the read's cookies. Not the core's
 *    `error?error=AccessDenied` page: it speaks of signing in, to a user who is signed in. A
 *    `StorageUnavailable` thrown by `allow` (a permission read from the database during an outage)
 *    is answered as policy 6; any other error is thrown on, as SvelteKit answers an unexpected
 *    error (`handleError`, a `500`).
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { checkRedirectTarget, forbiddenBody, isStorageUnavailable, protectedPaths, setCookieLines, signInPageUrl, unauthorizedBody, wantsJson, type ProtectedPaths } from "@sesame/core/integration"
import { error, json, redirect, type Handle, type RequestEvent } from "@sveltejs/kit"
import { requestAuth, type RequestAuth } from "./session.js"
import type { AuthenticatedSession } from "./types.js"
import { unavailableError, unavailableResponse } from "./unavailable.js"

/** Options of the guards. */
export interface GuardOptions {
  /**
   * Where a visitor without a session is sent, as a path on this site (`/login`). By default the
   * sign-in page with the way back (policy 1).
   */
  redirectTo?: string
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user; a
   * visitor without one gets the sign-in redirect or the `401` as ever. Anything but `true` answers
   * `403` with `{ error: "Forbidden", message: "Access denied." }` (`requireSession` throws it as
   * SvelteKit's `error(403)`). A `StorageUnavailable` it throws is the outage's `503`; any other
   * error is thrown on, to SvelteKit.
   *
   * @param session - the request's session, with a user.
   * @param event - the request's event, for `api(event)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * // src/routes/projects/new/+page.server.ts: only members whose roles grant project:create,
   * // with the organizations plugin in `plugins` (`api` from `SvelteKitAuth` in src/auth.ts).
   * import { requireSession } from "@sesame/sveltekit"
   * import { api } from "../../../auth"
   *
   * export const load = async (event) => ({
   *   session: await requireSession(event, {
   *     allow: async (session, event) => (await api(event).hasPermission(session.organization?.id, { project: ["create"] })) === true,
   *   }),
   * })
   * ```
   */
  allow?: (session: AuthenticatedSession, event: RequestEvent) => boolean | Promise<boolean>
}

/** Options of {@link authorize}. */
export interface AuthorizeOptions extends GuardOptions {
  /**
   * The protected paths: each string covers that path and everything below it (`/admin` covers
   * `/admin` and `/admin/users`, not `/administrator`), `/` the whole app; or a predicate over the
   * decoded path. The endpoints under the base path are never protected (`handle` answers them).
   */
  protect: ProtectedPaths
}

/** The body of the `401` (policy 2); a variable, so that it fits an app's own `App.Error` that adds optional fields. */
const unauthorized = { ...unauthorizedBody }

/** The body of the `403` (policy 7): the core's, the same in every integration; a variable, as `unauthorized` is. */
const forbidden = { ...forbiddenBody }

/** Throws a `TypeError` when `allow` is given and not a function. */
function checkAllow(allow: unknown, owner: string): void {
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`${owner}: \`allow\` must be a function of the session and the event; got ${allow === null ? "null" : typeof allow}.`)
  }
}

/**
 * Whether `allow` lets `session` through (policy 7): only `true` does. What it throws is thrown on;
 * a `StorageUnavailable` is first recorded on the request, so that `handle` answers the page that
 * fails on it with the core's `503` (policy 6).
 */
async function allowed(state: RequestAuth, event: RequestEvent, session: AuthenticatedSession, allow: GuardOptions["allow"]): Promise<boolean> {
  if (!allow) return true
  try {
    return (await allow(session, event)) === true
  } catch (caught) {
    if (isStorageUnavailable(caught)) state.unavailable = caught
    throw caught
  }
}

/** Throws a `TypeError` unless `path` is a path on this site (policy 3). */
function checkPath(path: unknown, owner: string): asserts path is string {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//") || /[\\\s]/.test(path)) {
    throw new TypeError(`${owner}: \`redirectTo\` must be a path on this site, such as "/login"; got ${JSON.stringify(path)}.`)
  }
}

/** Where the guard sends `event`'s visitor (policy 1, 3); SvelteKit's `error(500)` when the configuration failed (logged by the hook). */
function targetOf(state: RequestAuth, event: RequestEvent, redirectTo: string | undefined): string {
  if (redirectTo !== undefined) return redirectTo
  if (!state.prepared) error(500, "Sign-in is not available.")
  return signInPageUrl(state.prepared.config, event.request, `${event.url.pathname}${event.url.search}`)
}

/**
 * The server-side guard: the session when it has a user; otherwise SvelteKit's
 * `redirect(303, <sign-in page>?callbackUrl=<this page>)` is thrown, or `error(401)` for a client
 * that asks for JSON. Call it from a `load` (`+layout.server.ts` guards every page below it), a
 * form action or a `+server.ts` handler. With `options.allow`, a signed-in session it refuses gets
 * SvelteKit's `error(403, { error: "Forbidden", message: "Access denied." })`.
 *
 * While the storage cannot be reached, it throws SvelteKit's `error(503, { error:
 * "StorageUnavailable", message })` instead, never the redirect or the `401`: the `handle` hook
 * answers the page with the core's "Try again in a moment" page (JSON for a client that wants
 * JSON), with `Retry-After`.
 *
 * @example
 * ```ts
 * // src/routes/account/+layout.server.ts
 * import { requireSession } from "@sesame/sveltekit"
 *
 * export const load = async (event) => ({ session: await requireSession(event) })
 * ```
 */
export async function requireSession(event: RequestEvent, options: GuardOptions = {}): Promise<AuthenticatedSession> {
  if (options.redirectTo !== undefined) checkPath(options.redirectTo, "requireSession")
  checkAllow(options.allow, "requireSession")
  const state = requestAuth(event, "requireSession")
  const session = await sessionOrUnavailable(event, state)
  if (!session?.user) {
    if (wantsJson(event.request.headers)) error(401, unauthorized)
    redirect(303, targetOf(state, event, options.redirectTo))
  }
  let ok: boolean
  try {
    ok = await allowed(state, event, session as AuthenticatedSession, options.allow)
  } catch (caught) {
    if (isStorageUnavailable(caught)) unavailableError(caught)
    throw caught
  }
  if (!ok) error(403, forbidden)
  return session as AuthenticatedSession
}

/**
 * The request-interceptor guard: a hook that answers requests for protected paths without a
 * signed-in user with the redirect (or the `401` for JSON clients), before SvelteKit routes them.
 * Put it after `handle` in `sequence`. Its options are checked at once: a bad path, or a
 * `redirectTo` that is itself protected (every visit would redirect to itself), throws a
 * `TypeError`.
 *
 * While the storage cannot be reached, a request for a protected path gets the core's `503` with
 * `Retry-After` instead: the "Try again in a moment" page, or JSON. With `allow`, a signed-in
 * request it refuses gets `403`: `{ error: "Forbidden", message: "Access denied." }` to a JSON
 * client or a client-side navigation, a plain-text "Access denied." to a page.
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { sequence } from "@sveltejs/kit/hooks"
 * import { authorize } from "@sesame/sveltekit"
 * import { handle as auth } from "./auth"
 *
 * export const handle = sequence(auth, authorize({ protect: ["/admin"] }))
 * ```
 */
export function authorize({ protect, redirectTo, allow }: AuthorizeOptions): Handle {
  const listed = protectedPaths(protect, "authorize")
  if (redirectTo !== undefined) {
    checkPath(redirectTo, "authorize")
    checkRedirectTarget("authorize", redirectTo, undefined, listed)
  }
  checkAllow(allow, "authorize")
  return async ({ event, resolve }) => {
    const state = requestAuth(event, "authorize")
    // A remote call's event.url is the page its caller names (policy 4): the call's own path decides.
    const path = decodedPath(event.isRemoteRequest ? new URL(event.request.url).pathname : event.url.pathname)
    if (path !== null && !listed(path)) return resolve(event)
    let session: Session | null
    let ok = false
    try {
      session = await event.locals.auth()
      if (session?.user) ok = await allowed(state, event, session as AuthenticatedSession, allow)
    } catch (caught) {
      // An outage (policy 6, 7): the core's 503, the request goes no further.
      if (isStorageUnavailable(caught) && state.prepared) return unavailableResponse(state.prepared.config, event, caught)
      throw caught
    }
    if (ok) return resolve(event)
    const headers = { "cache-control": "private, no-store" }
    const answer = session?.user
      ? wantsJson(event.request.headers) || event.isDataRequest
        ? json(forbidden, { status: 403, headers })
        : new Response(forbidden.message, { status: 403, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } })
      : wantsJson(event.request.headers)
        ? json(unauthorized, { status: 401, headers })
        : new Response(null, { status: 303, headers: { ...headers, location: targetOf(state, event, redirectTo) } })
    // This answer skips SvelteKit's rendering, which is what adds `event.cookies` to a response.
    for (const line of setCookieLines(state.cookies)) answer.headers.append("set-cookie", line)
    return answer
  }
}

/** `locals.auth()`, or SvelteKit's `error(503)` when the storage cannot be reached (policy 6). */
async function sessionOrUnavailable(event: RequestEvent, state: RequestAuth): Promise<Session | null> {
  try {
    return await event.locals.auth()
  } catch (caught) {
    if (isStorageUnavailable(caught)) unavailableError(caught)
    throw caught
  }
}

/** The path as SvelteKit's router reads it (each `%XX` but `%25` decoded), or null when it does not decode (policy 4). */
function decodedPath(pathname: string): string | null {
  try {
    return pathname.split("%25").map(decodeURI).join("%25")
  } catch {
    return null
  }
}
