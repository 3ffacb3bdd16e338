/**
 * The guards: `requireSession(args)` in a loader or action, and `authorize(config, { protect })`,
 * a middleware guarding a list of paths before any loader runs.
 *
 * Policy:
 * 1. A visitor without a session, or whose session has no user, is turned away. A client that asks
 *    for JSON and not for a page (`Accept: application/json`, `X-Requested-With`: the core's
 *    `wantsJson`) gets `401` with `{ "error": "Unauthorized", "message": "Sign in first." }`; a page
 *    gets a `303 See Other` to the core's sign-in endpoint (`signInPageUrl`), which shows the
 *    built-in page or forwards to `pages.signIn`, with `callbackUrl` set to the page and query
 *    asked for (without React Router's `.data` suffix: paths.ts), never a URL from a header;
 *    leading slashes collapse. A client-side navigation's `.data` request gets the same `303`,
 *    which React Router follows by loading the sign-in page as a document (document.ts).
 * 2. The redirect is absolute on the app's origin by the core's rule (`AUTH_URL`, a trusted `Host`,
 *    a loopback `Host`), and a path when the core refuses the request's host: a forged `Host` or
 *    `X-Forwarded-Host` is never written into it.
 * 3. An explicit `redirectTo` is a path on this site fixed by the app, checked when the guard is
 *    made or called, and used as it is.
 * 4. No answer of the guard is cached (`Cache-Control: private, no-store`): it depends on the
 *    cookies. The cookies of the read (a cleared cookie that was no good) go on it.
 * 5. `authorize` matches every form of the path React Router may route (paths.ts: decoded as
 *    React Router and as the core decode, any case, without a trailing slash, with or without the
 *    `.data` suffix, below the `basename` it is given). A path that does not decode is protected.
 *    The resource route under the base path is never guarded (it is how a visitor signs in).
 * 6. While the storage cannot be reached (`StorageUnavailable`), nothing is known of the session:
 *    neither the redirect nor the `401`, which would sign every user out for the length of a
 *    database restart, but the core's `503` with `Retry-After` (`unavailable.ts`); no cookie.
 * 7. With `allow`, a signed-in request goes on only when `allow(session, args)` resolves to
 *    `true`; it is asked only once there is a user. Anything but `true` is `403`: `{ "error":
 *    "Forbidden", "message": "Access denied." }` to a client that wants JSON, else a one-line
 *    plain-text answer. A `StorageUnavailable` thrown by `allow` is answered as 6; any other error
 *    is thrown on, to React Router.
 * 8. `requireSession` throws its refusal as a `Response`, React Router's way for a loader or an
 *    action to answer early: a redirect is followed (a document's, a `.data` request's), and
 *    another status reaches the route's `ErrorBoundary` (a page) or the client as it is (a resource
 *    route). `authorize` returns it from the middleware: the browser gets it as it is.
 *
 * @module
 */
import type { AuthConfig, ResponseCookie } from "@sesame/core"
import { checkGuardOptions, checkRedirectTarget, foldedPath, forbiddenAnswer, isStorageUnavailable, isUnderPath, protectedPaths, refusedAnswer, type ProtectedPaths, type SessionRead } from "@sesame/core/integration"
import { configFor, prepare, type Prepared } from "./config.js"
import { reloadingIntoSesame } from "./document.js"
import { belowBasename, guardedForms, pageOf } from "./paths.js"
import { continueWith, readingMiddleware, readOf, type SesameMiddleware } from "./session.js"
import type { AuthenticatedSession, RouteArgs } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * Options of {@link requireSession} and {@link authorize}.
 *
 * @example
 * ```ts
 * const adminsOnly: GuardOptions = { redirectTo: "/signin", allow: (session) => session.user.email === "admin@example.com" }
 * const session = await requireSession(args, adminsOnly)
 * ```
 */
export interface GuardOptions {
  /**
   * Where a visitor without a session is sent, as a path on this site (`/signin`). By default the
   * sign-in page with the way back (`<basePath>/signin?callbackUrl=<this page>`).
   */
  redirectTo?: string
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user.
   * Anything but `true` answers `403`. A `StorageUnavailable` it throws is the outage's `503`; any
   * other error is thrown on, to React Router.
   *
   * @param session - the request's session, with a user.
   * @param args - the route's arguments, for `api(args)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * const session = await requireSession(args, { allow: (session) => session.user.email === "admin@example.com" })
   * ```
   */
  allow?: (session: AuthenticatedSession, args: RouteArgs) => boolean | Promise<boolean>
}

/**
 * Options of {@link authorize}.
 *
 * @example
 * ```ts
 * const options: AuthorizeOptions = { protect: ["/dashboard", "/api/private"] }
 * export const middleware = [sessionMiddleware(authConfig), authorize(authConfig, options)]
 * ```
 */
export interface AuthorizeOptions extends GuardOptions {
  /**
   * The protected paths: each string covers that path and everything below it (`/dashboard`
   * covers `/dashboard` and `/dashboard/keys`, not `/dashboards`), `/` the whole app, in any case;
   * or a predicate over the decoded path, without a trailing slash (asked for each form React
   * Router may route, lowercase among them: policy 5). The resource route under the base path is
   * never protected.
   */
  protect: ProtectedPaths
  /**
   * React Router's `basename` (`react-router.config.ts`), when the app has one: the guard strips it
   * before comparing, so that `protect` names paths as the routes do (`["/dashboard"]` guards
   * `/app/dashboard` with `basename: "/app"`). Without it, `protect` names the paths the browser
   * asks for, the basename included.
   */
  basename?: string
}

/** What `allow` is a function of, for the `TypeError` of a bad one. */
const allowOf = "the session and the route's arguments"

/**
 * The session when it has a user and `allow` lets it through, else the guard's answer (policy 1,
 * 6, 7): the refusal, the `403`, or the core's `503`.
 */
async function check(args: RouteArgs, prepared: Prepared, options: GuardOptions, session: AuthenticatedSession | null, cookies: readonly ResponseCookie[]): Promise<AuthenticatedSession | Response> {
  if (!session?.user) return reloadingIntoSesame(refusedAnswer(prepared.config, args.request, options.redirectTo, pageOf(args.request), cookies), prepared)
  if (!options.allow) return session
  let ok: boolean
  try {
    ok = (await options.allow(session, args)) === true
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(args.request, prepared, error)
    throw error
  }
  return ok ? session : forbiddenAnswer(args.request, cookies)
}

/** Whether the second argument of `requireSession` is a configuration rather than options. */
function isConfig(value: unknown): value is AuthConfig {
  return typeof value === "object" && value !== null && "providers" in value
}

/**
 * The check a loader or an action makes itself: the session, with a user; else it throws the
 * `Response` that answers the request instead (policy 8): a `303` to the sign-in page with the way
 * back (or to `options.redirectTo`) for a page, `401` `{ "error": "Unauthorized", "message":
 * "Sign in first." }` for a JSON client, `403` when `options.allow` refuses, the core's `503` with
 * `Retry-After` while the storage cannot be reached. All say `Cache-Control: private, no-store`.
 *
 * The arguments follow `getSession(args, config?)`: `requireSession(args, config?, options?)`; the
 * configuration may be left out after `sessionMiddleware`, and then `requireSession(args, options)`
 * is the same as `requireSession(args, undefined, options)`.
 *
 * @param args - the loader's or action's arguments.
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @param options - `redirectTo` and `allow` (see {@link GuardOptions}); bad ones throw a `TypeError`.
 * @throws the refusal's `Response` (React Router answers with it).
 *
 * @example
 * ```ts
 * // app/routes/api.me.ts, a resource route
 * import { requireSession } from "@sesame/react-router"
 * import type { Route } from "./+types/api.me"
 *
 * export async function loader(args: Route.LoaderArgs) {
 *   const session = await requireSession(args)
 *   return Response.json({ email: session.user.email })
 * }
 * ```
 */
export async function requireSession(args: RouteArgs, options?: GuardOptions): Promise<AuthenticatedSession>
export async function requireSession(args: RouteArgs, config: AuthConfig | undefined, options?: GuardOptions): Promise<AuthenticatedSession>
export async function requireSession(args: RouteArgs, second?: AuthConfig | GuardOptions, third?: GuardOptions): Promise<AuthenticatedSession> {
  const config = isConfig(second) || third !== undefined ? (second as AuthConfig | undefined) : undefined
  const options = (isConfig(second) || third !== undefined ? third : (second as GuardOptions | undefined)) ?? {}
  checkGuardOptions(options, "requireSession", allowOf)
  const prepared = configFor(args, config, "requireSession")
  let read: SessionRead
  try {
    read = await readOf(args, prepared, "requireSession").result
  } catch (error) {
    if (isStorageUnavailable(error)) throw unavailableResponse(args.request, prepared, error)
    throw error
  }
  const result = await check(args, prepared, options, read.session as AuthenticatedSession | null, read.cookies)
  if (result instanceof Response) throw result
  return result
}

/**
 * The guard for a list of paths, as a middleware: requests for a protected path without a
 * signed-in user get the sign-in redirect (or the `401` for a JSON client) before any loader or
 * action runs; with `allow`, a signed-in request it refuses gets `403`; during a storage outage,
 * the core's `503`. It shares the request's read with `sessionMiddleware`; put it after that.
 *
 * Its options are checked at once: a bad path, a `redirectTo` that is not a path on this site or
 * is itself protected (every visit would redirect to itself), or an `allow` that is not a function
 * throws a `TypeError`, as does a configuration that is not an object.
 *
 * @example
 * ```ts
 * // app/root.tsx
 * import { authorize, sessionMiddleware } from "@sesame/react-router"
 * import { authConfig } from "./auth.server"
 *
 * export const middleware = [
 *   sessionMiddleware(authConfig),
 *   authorize(authConfig, { protect: ["/dashboard", "/api/private"] }),
 * ]
 * ```
 */
export function authorize(config: AuthConfig, options: AuthorizeOptions): SesameMiddleware {
  if (typeof options !== "object" || options === null) throw new TypeError("authorize: expected options with `protect`, such as { protect: [\"/dashboard\"] }.")
  if (options.basename !== undefined && (typeof options.basename !== "string" || !options.basename.startsWith("/"))) {
    throw new TypeError(`authorize: \`basename\` must be the app's basename, such as "/app"; got ${JSON.stringify(options.basename)}.`)
  }
  const given = Array.isArray(options.protect) ? options.protect.map((path: unknown) => (typeof path === "string" ? foldedPath(path) : path)) : options.protect
  const listed = protectedPaths(given, "authorize")
  checkGuardOptions(options, "authorize", allowOf)
  const { basePath } = prepare(config, "authorize")
  checkRedirectTarget("authorize", options.redirectTo, basePath, (target) => listed(foldedPath(belowBasename(target, options.basename))))
  const isProtected = (args: RouteArgs): boolean => {
    const forms = guardedForms(args.request)
    if (forms === null) return true
    // The resource route itself is how a visitor signs in (policy 5); its base path is a URL's path.
    if (forms.every((path) => isUnderPath(path, basePath) || isUnderPath(path, foldedPath(basePath)))) return false
    return (options.basename === undefined ? forms : guardedForms(args.request, options.basename)!).some((path) => listed(path))
  }
  return readingMiddleware(
    config,
    "authorize",
    async (args, next, { session, cookies }, prepared) => {
      const result = await check(args, prepared, options, session as AuthenticatedSession | null, cookies)
      if (result instanceof Response) return result
      return continueWith(args, next, prepared, cookies)
    },
    (args) => !isProtected(args),
  )
}
