/**
 * The guards: `authorize(config, { protect })`, a server middleware guarding a list of paths before
 * any route or page renders, and `requireSession(event)`, the check a route makes itself.
 *
 * The answers are the core's (`refusedAnswer`, `forbiddenAnswer`): a visitor without a session gets
 * a `303` to the core's sign-in endpoint with the way back (the path and query asked for, never a
 * URL from a header, never a forged host), or `401` `{ "error": "Unauthorized", "message":
 * "Sign in first." }` for a JSON client; `allow` refusing a signed-in user is `403`; a storage
 * outage is the core's `503`. None is cached.
 *
 * Policy:
 * 1. `authorize` matches every form of the path a Nuxt app may route to a page (the core's
 *    `routedForms`): Vue Router matches pages without regard to case and with or without a
 *    trailing slash (`/Dashboard/` is the page `/dashboard`), percent-decoded; a decoded `?` or `#`
 *    ends the path (`/dashboard%3F`); a page's payload (`<path>/_payload.json`) and its server
 *    island (`/__nuxt_island/page_…?url=<path>`) are that page's. Both
 *    the path as it came (h3's router matches it with its `..` segments: `/dashboard/..`) and as a
 *    URL resolves it are checked. A path that does not decode is protected. The auth routes under
 *    the base path are never guarded (they are how a visitor signs in).
 * 2. `requireSession` returns its refusal as a `Response` for the route to return (h3 sends it as
 *    it is); the cookies of the read are on the event's response already (session.ts).
 * 3. Client-side navigation between pages makes no request the server sees: the route middleware
 *    `sesame-auth` of the module guards it in the browser, from `useSession()`.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { checkGuardOptions, checkRedirectTarget, foldedPath, forbiddenAnswer, isStorageUnavailable, isUnderPath, protectedPaths, refusedAnswer, routedForms, type ProtectedPaths } from "@sesame/core/integration"
import { defineEventHandler, getQuery, getRequestURL, type EventHandler } from "h3"
import { configFor, prepare, type Prepared } from "./config.js"
import { requestLike } from "./request.js"
import { contextOf, pathsOf, sessionOf } from "./session.js"
import type { AuthenticatedSession, Event } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * Options of {@link requireSession} and {@link authorize}.
 *
 * @example
 * ```ts
 * const adminsOnly: GuardOptions = { redirectTo: "/signin", allow: (session) => session.user.email === "admin@example.com" }
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
   * request goes on only when it resolves to `true`. Anything but `true` answers `403`. A
   * `StorageUnavailable` it throws is the outage's `503`; any other error is thrown on, to h3.
   *
   * @example
   * ```ts
   * const session = await requireSession(event, { allow: (session) => session.user.email === "admin@example.com" })
   * ```
   */
  allow?: (session: AuthenticatedSession, event: Event) => boolean | Promise<boolean>
}

/**
 * Options of {@link authorize}.
 *
 * @example
 * ```ts
 * const options: AuthorizeOptions = { protect: ["/dashboard", "/api/private"] }
 * ```
 */
export interface AuthorizeOptions extends GuardOptions {
  /**
   * The protected paths: each string covers that path and everything below it (`/dashboard`
   * covers `/dashboard` and `/dashboard/keys`, not `/dashboards`), `/` the whole app, in any case;
   * or a predicate over the decoded path without a trailing slash (asked for each form, lowercase
   * among them). The auth routes under the base path are never protected.
   */
  protect: ProtectedPaths
}

/** What `allow` is a function of, for the `TypeError` of a bad one. */
const allowOf = "the session and the event"

/** The session when it has a user and `allow` lets it through, else the guard's answer. */
async function check(event: Event, prepared: Prepared, options: GuardOptions, session: AuthenticatedSession | null): Promise<AuthenticatedSession | Response> {
  const request = requestLike(event)
  const asked = getRequestURL(event)
  if (!session?.user) return refusedAnswer(prepared.config, new Request(request.url, { headers: request.headers }), options.redirectTo, `${asked.pathname}${asked.search}`, [])
  if (!options.allow) return session
  let ok: boolean
  try {
    ok = (await options.allow(session, event)) === true
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(event, prepared, error)
    throw error
  }
  return ok ? session : forbiddenAnswer(new Request(request.url, { headers: request.headers }), [])
}

/** Whether the second argument of `requireSession` is a configuration rather than options. */
function isConfig(value: unknown): value is AuthConfig {
  return typeof value === "object" && value !== null && "providers" in value
}

/**
 * The check a route makes itself: the session, with a user, or the `Response` to return instead
 * (policy 2): a `303` to the sign-in page with the way back (or to `options.redirectTo`) for a
 * page, `401` JSON for a JSON client, `403` when `options.allow` refuses, the core's `503` while
 * the storage cannot be reached.
 *
 * @param config - optional after `sessionMiddleware` ran for the request: its configuration is used.
 * @param options - `redirectTo` and `allow`; bad ones throw a `TypeError`.
 *
 * @example
 * ```ts
 * // server/api/me.get.ts
 * import { requireSession } from "@sesame/nuxt/server"
 *
 * export default defineEventHandler(async (event) => {
 *   const session = await requireSession(event)
 *   if (session instanceof Response) return session
 *   return { email: session.user.email }
 * })
 * ```
 */
export async function requireSession(event: Event, options?: GuardOptions): Promise<AuthenticatedSession | Response>
export async function requireSession(event: Event, config: AuthConfig | undefined, options?: GuardOptions): Promise<AuthenticatedSession | Response>
export async function requireSession(event: Event, second?: AuthConfig | GuardOptions, third?: GuardOptions): Promise<AuthenticatedSession | Response> {
  const config = isConfig(second) || third !== undefined ? (second as AuthConfig | undefined) : undefined
  const options = (isConfig(second) || third !== undefined ? third : (second as GuardOptions | undefined)) ?? {}
  checkGuardOptions(options, "requireSession", allowOf)
  const prepared = configFor(event, config, "requireSession")
  try {
    return await check(event, prepared, options, (await sessionOf(event, prepared, "requireSession")).session as AuthenticatedSession | null)
  } catch (error) {
    if (isStorageUnavailable(error)) return unavailableResponse(event, prepared, error)
    throw error
  }
}

/**
 * The paths a request renders (policy 1): its own, and for a page island
 * (`/__nuxt_island/page_<name>_<hash>.json?url=/account`, which renders the page of `url`), that
 * page's; null for a page island that does not say which page (its post, or no `url`): protected.
 */
function renderedPaths(event: Event): string[] | null {
  const paths = pathsOf(event)
  if (!paths.some((path) => /^\/__nuxt_island\/page_/i.test(path))) return paths
  const url = getQuery(event).url
  if (typeof url !== "string" || !url.startsWith("/")) return null
  return [...paths, new URL(url, "http://localhost").pathname]
}

/** The forms of the event's path a guard checks (policy 1), or null when one does not decode. */
function guardedForms(event: Event): string[] | null {
  const paths = renderedPaths(event)
  if (paths === null) return null
  const forms = new Set<string>()
  for (const path of paths) {
    // Nuxt's own pattern for a page's payload, its unescaped `.` too (`/account/_payloadXjson`).
    for (const page of [path, path.replace(/\/_payload.(?:json|js)$/, "")]) {
      const routed = routedForms(page, true)
      if (routed === null) return null
      for (const form of routed) {
        forms.add(form)
        // A decoded `?` or `#` ends the path for h3's router and Nuxt's renderer (`/dashboard%3F`).
        forms.add(form.replace(/[?#].*$/, "").replace(/(.)\/+$/, "$1") || "/")
      }
    }
  }
  return [...forms]
}

/**
 * The guard for a list of paths, as a server middleware (`server/middleware/`, after
 * `sessionMiddleware`): a request for a protected path without a signed-in user gets the sign-in
 * redirect (or the `401` for a JSON client) before any route or page renders; with `allow`, a
 * signed-in request it refuses gets `403`; during a storage outage, the core's `503`.
 *
 * Its options are checked at once: a bad path, a `redirectTo` that is not a path on this site or
 * is itself protected, or an `allow` that is not a function throws a `TypeError`, as does a
 * configuration that is not an object.
 *
 * @example
 * ```ts
 * // server/middleware/2.authorize.ts (Nitro runs server/middleware/1.session.ts, sessionMiddleware, first)
 * import { authorize } from "@sesame/nuxt/server"
 * import { authConfig } from "../utils/auth"
 *
 * export default authorize(authConfig, { protect: ["/dashboard", "/api/private"] })
 * ```
 */
export function authorize(config: AuthConfig, options: AuthorizeOptions): EventHandler<Request, Promise<Response | undefined>> {
  if (typeof options !== "object" || options === null) throw new TypeError("authorize: expected options with `protect`, such as { protect: [\"/dashboard\"] }.")
  const given = Array.isArray(options.protect) ? options.protect.map((path: unknown) => (typeof path === "string" ? foldedPath(path) : path)) : options.protect
  const listed = protectedPaths(given, "authorize")
  checkGuardOptions(options, "authorize", allowOf)
  const prepared = prepare(config, "authorize")
  checkRedirectTarget("authorize", options.redirectTo, prepared.basePath, (target) => listed(foldedPath(target)))
  const isProtected = (event: Event): boolean => {
    const forms = guardedForms(event)
    if (forms === null) return true
    if (forms.every((path) => isUnderPath(path, prepared.basePath))) return false
    return forms.some((path) => listed(path))
  }
  return defineEventHandler(async (event) => {
    if (!isProtected(event)) return undefined
    const used = configFor(event, config, "authorize")
    let result: AuthenticatedSession | Response
    try {
      result = await check(event, used, options, (await sessionOf(event, used, "authorize")).session as AuthenticatedSession | null)
    } catch (error) {
      if (isStorageUnavailable(error)) return unavailableResponse(event, used, error)
      throw error
    }
    if (result instanceof Response) return result
    contextOf(event).session = result
    return undefined
  })
}
