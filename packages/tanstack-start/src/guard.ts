/**
 * Guards: `authorize(config, { protect })`, a request middleware that turns away a visitor without
 * a session from a list of paths before anything of the page runs, and `requireSession()`, the
 * session or what to answer instead, for server functions, a route's `beforeLoad` through one, and
 * server routes.
 *
 * Policy:
 * 1. A visitor without a session: a page gets a redirect to `redirectTo`, else to the sign-in page
 *    with the way back; a client that asks for JSON gets `401` (the core's `refusedAnswer`).
 *    `requireSession()` throws TanStack Router's redirect (`303`, `reloadDocument`: the sign-in page
 *    is a server route, not a page of the router), which every caller passes on: a server
 *    function's caller in the browser follows it; the router turns it into the page's answer when
 *    the server calls the function in-process while it renders the page (a route's `beforeLoad` on
 *    the document request), where a plain thrown `Response` would end as a `500`; TanStack Start
 *    answers it for a server route and for `authorize`.
 * 2. A signed-in visitor whom `allow` refuses gets `403` (the core's `forbiddenAnswer`). TanStack
 *    Router cannot carry a `Response` out of a `beforeLoad` the server runs for a page: there, a
 *    refusal (like an outage's `503`) is the route's error, a `500`. A page's role check belongs
 *    in `authorize({ allow })`, which answers before the router runs.
 * 3. The guard matches every form of the path TanStack Router may route (paths.ts, policy 1).
 * 4. Server functions (`/_serverFn/…`) are not guarded by path: their URL does not say which page
 *    called them. A server function that returns what only a signed-in user may see calls
 *    `requireSession()` (or `getSession()`) itself; a route's `beforeLoad` guards client-side
 *    navigation through one.
 * 5. While the storage cannot be reached: the core's `503` with `Retry-After`, thrown or answered.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import {
  appOrigin,
  checkGuardOptions,
  checkRedirectTarget,
  forbiddenAnswer,
  foldedPath,
  isStorageUnavailable,
  protectedPaths,
  refusedAnswer,
  sameOriginReferer,
  signInPageUrl,
  wantsJson,
  type ProtectedPaths,
} from "@sesame/core/integration"
import { redirect } from "@tanstack/react-router"
import { configFor, currentRequest, prepare, type Prepared } from "./config.js"
import { formsOf, pageOf } from "./paths.js"
import { readOf, sesameMiddleware, type SesameRequestServerFn } from "./session.js"
import type { AuthenticatedSession } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/** Options of `requireSession` and `authorize`. */
export interface GuardOptions {
  /**
   * Where a visitor without a session is sent, as a path on this site (`/signin`). By default the
   * sign-in page with the way back (`<basePath>/signin?callbackUrl=<the page>`).
   */
  redirectTo?: string
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user.
   * Anything but `true` answers `403`. A `StorageUnavailable` it throws is the outage's `503`; any
   * other error is thrown on.
   *
   * @example
   * ```ts
   * await requireSession({ allow: (session) => session.user.email === "admin@example.com" })
   * ```
   */
  allow?: (session: AuthenticatedSession) => boolean | Promise<boolean>
}

/** Options of `requireSession`. */
export interface RequireSessionOptions extends GuardOptions {
  /**
   * The page to come back to after signing in, as a path on this site (a route's
   * `location.href`). By default the request's own page, or, for a server function's call, the
   * page the browser was on (a same-origin `Referer`), else `/`. Anything but a path on this site
   * (it comes from the browser, as a server function's input) is ignored.
   */
  returnTo?: string
}

/** Options of `authorize`. */
export interface AuthorizeOptions extends GuardOptions {
  /**
   * The protected paths: each string covers that path and everything below it (`/dashboard`
   * covers `/dashboard` and `/dashboard/keys`, not `/dashboards`), `/` the whole app, in any case;
   * or a predicate over the decoded path, without a trailing slash (asked for each form TanStack
   * Router may route, lowercase among them). Sesame's server route under the base path is never
   * protected.
   */
  protect: ProtectedPaths
}

const allowOf = "the session"

/** Whether the request is a server function's call from the browser (TanStack Start's own header). */
function isServerFunctionCall(request: Request): boolean {
  return request.headers.get("x-tsr-serverfn") === "true"
}

/**
 * The page a server function's caller was on: a `Referer` on the app's origin (the core's
 * `sameOriginReferer`, whose path and query the sign-in page keeps), else `/`.
 */
function callerPage(request: Request, prepared: Prepared): string {
  const origin = appOrigin(prepared.config, request)
  return (origin === null ? undefined : sameOriginReferer(request, origin)) ?? "/"
}

/**
 * The redirect of a visitor without a session to `href`, as TanStack Router's (policy 1): `303` as
 * the core's own, private as it depends on the cookies.
 */
function signInRedirect(href: string): Response {
  return redirect({ href, statusCode: 303, reloadDocument: true, headers: { "cache-control": "private, no-store" } })
}

/**
 * `returnTo` when it is a path on this site, else nothing (policy 1). It comes from the browser (a
 * server function's input): another value is no error of the app's, and falls back to the default
 * page rather than answer `500`. The sign-in page keeps only its path and query in any case.
 */
function pathToReturnTo(returnTo: unknown): string | undefined {
  if (typeof returnTo !== "string" || !returnTo.startsWith("/") || returnTo.startsWith("//") || /[\\\s]/.test(returnTo)) return undefined
  return returnTo
}

/** The session with a user, or what to answer instead (policy 1, 2, 5). */
async function check(request: Request, prepared: Prepared, options: RequireSessionOptions, page: string): Promise<AuthenticatedSession | Response> {
  const { session } = await readOf(request, prepared, "requireSession")
  if (!session?.user) {
    if (wantsJson(request.headers) && !isServerFunctionCall(request)) return refusedAnswer(prepared.config, request, options.redirectTo, page, [])
    return signInRedirect(options.redirectTo ?? signInPageUrl(prepared.config, request, page))
  }
  if (!options.allow) return session as AuthenticatedSession
  let ok: boolean
  try {
    ok = (await options.allow(session as AuthenticatedSession)) === true
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(request, prepared, error)
    throw error
  }
  return ok ? (session as AuthenticatedSession) : forbiddenAnswer(request, [])
}

/**
 * The session of the request TanStack Start is handling, with a user; or it throws what answers
 * instead: a redirect to the sign-in page (TanStack Router's, which a route's `beforeLoad` passes
 * on, on the server and in the browser alike), `401` JSON for a client that asks for JSON, `403`
 * when `allow` refuses, the core's `503` during an outage.
 *
 * @param options - `redirectTo`, `allow`, `returnTo` (the page to come back to).
 * @param config - optional after `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * // src/session.ts: a route's guard, on the server and in the browser alike
 * import { createServerFn } from "@tanstack/react-start"
 * import { requireSession } from "@sesame/tanstack-start"
 *
 * export const requireUser = createServerFn({ method: "GET" })
 *   .validator((returnTo: string) => returnTo)
 *   .handler(({ data }) => requireSession({ returnTo: data }))
 *
 * // src/routes/dashboard.tsx
 * export const Route = createFileRoute("/dashboard")({
 *   beforeLoad: async ({ location }) => ({ session: await requireUser({ data: location.href }) }),
 *   component: Dashboard,
 * })
 * ```
 */
export async function requireSession(options: RequireSessionOptions = {}, config?: AuthConfig): Promise<AuthenticatedSession> {
  checkGuardOptions(options, "requireSession", allowOf)
  const request = currentRequest("requireSession")
  const prepared = configFor(request, config, "requireSession")
  const page = pathToReturnTo(options.returnTo) ?? (isServerFunctionCall(request) ? callerPage(request, prepared) : pageOf(request))
  let result: AuthenticatedSession | Response
  try {
    result = await check(request, prepared, options, page)
  } catch (error) {
    if (isStorageUnavailable(error)) throw unavailableResponse(request, prepared, error)
    throw error
  }
  if (result instanceof Response) throw result
  return result
}

/**
 * The server function of a request middleware that guards `protect`, for
 * `createMiddleware().server(…)` in `src/start.ts` (after `sessionMiddleware`'s): a visitor without a session is sent to the sign-in
 * page (`401` JSON for a client that asks for JSON) before any loader, page or server route of the
 * path runs; `allow` refuses with `403`. It reads the session as `sessionMiddleware` does (once per
 * request) and keeps it alive.
 *
 * It sees the requests that reach the server for a path: documents and server routes. A client-side
 * navigation asks no document: guard those routes in `beforeLoad` too (`requireSession()` through a
 * server function). Server functions are not matched by path (policy 4).
 *
 * @param config - the configuration; one that is not an object throws a `TypeError` here.
 * @param options - `protect`, `redirectTo`, `allow`; checked here (a `TypeError` for a bad one, or
 *   for a `redirectTo` that is itself protected).
 *
 * @example
 * ```ts
 * // src/start.ts
 * export const startInstance = createStart(() => ({
 *   requestMiddleware: [
 *     createMiddleware().server(sessionMiddleware(authConfig)),
 *     createMiddleware().server(authorize(authConfig, { protect: ["/dashboard", "/api/me"] })),
 *   ],
 * }))
 * ```
 */
export function authorize(config: AuthConfig, options: AuthorizeOptions): SesameRequestServerFn {
  if (typeof options !== "object" || options === null) throw new TypeError('authorize: expected options with `protect`, such as { protect: ["/dashboard"] }.')
  const given = Array.isArray(options.protect) ? options.protect.map((path: unknown) => (typeof path === "string" ? foldedPath(path) : path)) : options.protect
  const listed = protectedPaths(given, "authorize")
  checkGuardOptions(options, "authorize", allowOf)
  const { basePath } = prepare(config, "authorize")
  checkRedirectTarget("authorize", options.redirectTo, basePath, (target) => listed(foldedPath(target).replace(/(.)\/+$/, "$1")))
  return sesameMiddleware(config, "authorize", async ({ request, pathname, handlerType, next }, prepared) => {
    if (handlerType === "serverFn") return next()
    const forms = formsOf(request, pathname)
    if (forms !== null && !forms.some((path) => listed(path))) return next()
    const result = await check(request, prepared, options, pageOf(request))
    return result instanceof Response ? result : next({ context: { session: result } })
  })
}
