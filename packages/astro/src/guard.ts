/**
 * Protected pages and endpoints, in both forms: `authorize(config, { protect })`, a middleware that
 * guards paths before Astro renders anything, and `requireSession(context)`, the check a page's
 * frontmatter or an endpoint makes itself.
 *
 * Policy:
 * 1. A visitor without a session, or whose session has no user, is turned away. A client that asks
 *    for JSON and not for a page (`Accept: application/json`, `X-Requested-With`: the core's
 *    `wantsJson`) gets `401` with `{ "error": "Unauthorized", "message": "Sign in first." }`; a page
 *    gets a `303 See Other` to the core's sign-in endpoint (`signInPageUrl`), which shows the
 *    built-in page or forwards to `pages.signIn`, with `callbackUrl` set to the path and query
 *    asked for, never a URL from a header; leading slashes collapse (`//evil.example` comes back
 *    as `/evil.example`). `303`, as in every integration: the guard may answer a form's post.
 * 2. The redirect is absolute on the app's origin by the core's rule (`AUTH_URL`, a trusted `Host`,
 *    a loopback `Host`), and a path when the core refuses the request's host: a forged `Host` or
 *    `X-Forwarded-Host` is never written into it.
 * 3. An explicit `redirectTo` is a path on this site fixed by the app, checked when the guard is
 *    made or called, and used as it is.
 * 4. No answer of the guard is cached (`Cache-Control: private, no-store`): it depends on the
 *    cookies. The cookies of the read (a cleared cookie that was no good) go on it.
 * 5. `authorize` matches paths as Astro routes them: percent-decoded until they stop changing
 *    (`/%64ashboard` and `/%2564ashboard` are `/dashboard`), duplicate slashes collapsed
 *    (`//dashboard` is `/dashboard`); a `protect` function is asked about it with and without a
 *    trailing slash (`/settings/` is `/settings`). A path that does not decode is protected. With
 *    Astro's `base` (`base: "/docs"`), each form is matched both as the page Astro routes it to and
 *    as that page's address under the base: Astro strips the base from a path under it and routes
 *    a path outside it as it is (`/dashboard` renders the page of `/docs/dashboard`), so
 *    `protect: ["/docs/dashboard"]` and `protect: ["/dashboard"]` each guard both. The endpoint
 *    under the base path is never guarded (it is how a visitor signs in). A prerendered page cannot be guarded (it is
 *    built once, for no visitor): a protected one fails the build, rather than be published.
 * 6. While the storage cannot be reached (`StorageUnavailable`), nothing is known of the session:
 *    neither the redirect nor the `401`, which would sign every user out for the length of a
 *    database restart, but the core's `503` with `Retry-After` (`unavailable.ts`); no cookie.
 * 7. With `allow`, a signed-in request goes on only when `allow(session, context)` resolves to
 *    `true`; it is asked only once there is a user. Anything but `true` is `403`: `{ "error":
 *    "Forbidden", "message": "Access denied." }` to a client that wants JSON, else a one-line
 *    plain-text page (not the core's `error?error=AccessDenied` page, which speaks of signing in,
 *    to a user who is signed in). A `StorageUnavailable` thrown by `allow` is answered as 6; any
 *    other error is thrown on, to Astro.
 * 8. `requireSession` returns its refusal as a `Response` rather than throwing it: Astro has no
 *    error that carries a response, and a page's frontmatter and an endpoint both answer with the
 *    `Response` they return (`if (guarded instanceof Response) return guarded`).
 *
 * @module
 */
import type { AuthConfig, ResponseCookie } from "@sesame/core"
import { checkGuardOptions, checkRedirectTarget, decodedPath, forbiddenAnswer, isStorageUnavailable, isUnderPath, protectedPaths, refusedAnswer, routedForms, type ProtectedPaths, type SessionRead } from "@sesame/core/integration"
import { astroBase, configFor, prepare, type Prepared } from "./config.js"
import { continueWith, localsOf, readingMiddleware, sessionOf, type SesameMiddleware } from "./session.js"
import type { AstroContext, AuthenticatedSession } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * Options of {@link requireSession} and {@link authorize}.
 *
 * @example
 * ```ts
 * const adminsOnly: GuardOptions = { redirectTo: "/signin", allow: (session) => session.user.email === "admin@example.com" }
 * const session = await requireSession(Astro, adminsOnly)
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
   * other error is thrown on, to Astro.
   *
   * @param session - the request's session, with a user.
   * @param context - the request's context, for `api(context)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * const guarded = await requireSession(Astro, { allow: (session) => session.user.email === "admin@example.com" })
   * ```
   */
  allow?: (session: AuthenticatedSession, context: AstroContext) => boolean | Promise<boolean>
}

/**
 * Options of {@link authorize}.
 *
 * @example
 * ```ts
 * const options: AuthorizeOptions = { protect: ["/dashboard", "/api/private"] }
 * export const onRequest = sequence(sessionMiddleware(authConfig), authorize(authConfig, options))
 * ```
 */
export interface AuthorizeOptions extends GuardOptions {
  /**
   * The protected paths: each string covers that path and everything below it (`/dashboard`
   * covers `/dashboard` and `/dashboard/keys`, not `/dashboards`), `/` the whole app; or a
   * predicate over the decoded path. With Astro's `base`, a path may be written with the base or
   * without it (`/docs/dashboard` or `/dashboard`): either guards the page at every address Astro
   * renders it from. The endpoint under the base path is never protected.
   */
  protect: ProtectedPaths
}

/** What `allow` is a function of, for the `TypeError` of a bad one. */
const allowOf = "the session and the context"

/**
 * The session when it has a user and `allow` lets it through, else the guard's answer (policy 1,
 * 6, 7): the refusal, the `403`, or the core's `503`.
 */
async function check(context: AstroContext, prepared: Prepared, options: GuardOptions, session: AuthenticatedSession | null, cookies: readonly ResponseCookie[]): Promise<AuthenticatedSession | Response> {
  if (!session?.user) {
    const url = new URL(context.request.url)
    return refusedAnswer(prepared.config, context.request, options.redirectTo, `${url.pathname}${url.search}`, cookies)
  }
  if (!options.allow) return session
  let ok: boolean
  try {
    ok = (await options.allow(session, context)) === true
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(context, prepared, error)
    throw error
  }
  return ok ? session : forbiddenAnswer(context.request, cookies)
}

/**
 * The pages `forms` of a path render, for `authorize` to match (policy 5): each form as the route
 * Astro matches (`base` stripped where the form is under it; a form outside the base is routed as
 * it is) and as that route's address under `base` (`""` for none).
 */
function pagePaths(forms: readonly string[], base: string): string[] {
  const paths = new Set<string>()
  for (const form of forms) {
    const route = base === "" || !isUnderPath(form, base) ? form : form.slice(base.length) || "/"
    paths.add(route)
    paths.add(route === "/" ? base || "/" : `${base}${route}`)
  }
  return [...paths]
}

/**
 * The pages a request may render, by every form of its path Astro routes (policy 5): the path asked
 * for and `context.url` (normalized by Astro), each decoded as it is (a trailing slash kept) and in
 * each of the core's `routedForms` (without it). Null when one does not decode: it is protected.
 */
function requestPages(context: AstroContext, base: string): string[] | null {
  const forms: string[] = []
  for (const pathname of [new URL(context.request.url).pathname, context.url.pathname]) {
    const decoded = decodedPath(pathname)
    const routed = routedForms(pathname, false)
    if (decoded === null || routed === null) return null
    forms.push(decoded, ...routed)
  }
  return pagePaths(forms, base)
}

/** Whether the second argument of `requireSession` is a configuration rather than options. */
function isConfig(value: unknown): value is AuthConfig {
  return typeof value === "object" && value !== null && "providers" in value
}

/**
 * The check a page's frontmatter or an endpoint makes itself: the session, with a user, or the
 * `Response` to return instead (policy 8): a `303` to the sign-in page with the way back (or to
 * `options.redirectTo`) for a page, `401` `{ "error": "Unauthorized", "message": "Sign in first." }`
 * for a JSON client, `403` when `options.allow` refuses, the core's `503` with `Retry-After` while
 * the storage cannot be reached. All say `Cache-Control: private, no-store`.
 *
 * The arguments follow `assertSession(c, config?, options?)` of `@sesame/hono`:
 * `requireSession(context, config?, options?)`; the configuration may be left out after
 * `sessionMiddleware`, and then `requireSession(context, options)` is the same as
 * `requireSession(context, undefined, options)`.
 *
 * @param context - `Astro` in a page, the `APIContext` in an endpoint.
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @param options - `redirectTo` and `allow` (see {@link GuardOptions}); bad ones throw a `TypeError`.
 *
 * @example
 * ```ts
 * // src/pages/api/me.ts
 * import type { APIContext } from "astro"
 * import { requireSession } from "@sesame/astro"
 *
 * export const prerender = false
 * export async function GET(context: APIContext) {
 *   const session = await requireSession(context)
 *   if (session instanceof Response) return session
 *   return Response.json({ email: session.user.email })
 * }
 * ```
 */
export async function requireSession(context: AstroContext, options?: GuardOptions): Promise<AuthenticatedSession | Response>
export async function requireSession(context: AstroContext, config: AuthConfig | undefined, options?: GuardOptions): Promise<AuthenticatedSession | Response>
export async function requireSession(context: AstroContext, second?: AuthConfig | GuardOptions, third?: GuardOptions): Promise<AuthenticatedSession | Response> {
  const config = isConfig(second) || third !== undefined ? (second as AuthConfig | undefined) : undefined
  const options = (isConfig(second) || third !== undefined ? third : (second as GuardOptions | undefined)) ?? {}
  checkGuardOptions(options, "requireSession", allowOf)
  const prepared = configFor(context, config, "requireSession")
  let read: SessionRead
  try {
    read = await sessionOf(context, prepared, "requireSession")
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(context, prepared, error)
    throw error
  }
  return check(context, prepared, options, read.session as AuthenticatedSession | null, read.cookies)
}

/**
 * The guard for a list of paths, as a middleware: requests for a protected path without a
 * signed-in user get the sign-in redirect (or the `401` for a JSON client) before Astro renders
 * anything; with `allow`, a signed-in request it refuses gets `403`; during a storage outage, the
 * core's `503`. Behind it, `Astro.locals.session` is the session, with a user. It shares the
 * request's read with `sessionMiddleware`; put it after that in `sequence`.
 *
 * Its options are checked at once: a bad path, a `redirectTo` that is not a path on this site or
 * is itself protected (every visit would redirect to itself), or an `allow` that is not a function
 * throws a `TypeError`, as does a configuration that is not an object. A protected prerendered page
 * throws when it is built (policy 5).
 *
 * @example
 * ```ts
 * // src/middleware.ts
 * import { sequence } from "astro:middleware"
 * import { authorize, sessionMiddleware } from "@sesame/astro"
 * import { authConfig } from "./auth"
 *
 * export const onRequest = sequence(
 *   sessionMiddleware(authConfig),
 *   authorize(authConfig, { protect: ["/dashboard", "/api/private"] }),
 * )
 * ```
 */
export function authorize(config: AuthConfig, options: AuthorizeOptions): SesameMiddleware {
  if (typeof options !== "object" || options === null) throw new TypeError("authorize: expected options with `protect`, such as { protect: [\"/dashboard\"] }.")
  const listed = protectedPaths(options.protect, "authorize")
  checkGuardOptions(options, "authorize", allowOf)
  const { basePath } = prepare(config, "authorize")
  const base = astroBase()
  checkRedirectTarget("authorize", options.redirectTo, basePath, (target) => pagePaths([target], base).some((path) => listed(path)))
  const isProtected = (context: AstroContext): boolean => {
    const path = decodedPath(new URL(context.request.url).pathname)
    if (path === null) return true
    if (isUnderPath(path, basePath)) return false
    // Every page the path may render, with and without Astro's base (policy 5).
    return requestPages(context, base)?.some((form) => listed(form)) ?? true
  }
  const guard = readingMiddleware(
    config,
    "authorize",
    async (context, next, { session, cookies }, prepared) => {
      const result = await check(context, prepared, options, session as AuthenticatedSession | null, cookies)
      if (result instanceof Response) return result
      localsOf(context).session = result
      return continueWith(context, next, prepared, cookies)
    },
    (context) => !isProtected(context),
  )
  return (context, next) => {
    if (context.isPrerendered === true && isProtected(context)) {
      throw new Error(`authorize: ${new URL(context.request.url).pathname} is protected but prerendered, so no visitor's session can be checked; add \`export const prerender = false\` to it.`)
    }
    return guard(context, next)
  }
}
