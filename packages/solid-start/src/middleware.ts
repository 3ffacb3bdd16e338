/**
 * `authMiddleware`: the request-interceptor guard, for SolidStart's `createMiddleware`.
 *
 * It runs before SolidStart renders anything, on every request to a protected path, so it guards a
 * page whether it is rendered on the server or only in the browser (`ssr: false`, `clientOnly`):
 * the document request itself is answered with the redirect. A navigation inside the running app
 * makes no document request; data a protected page loads through a server function is guarded
 * there (`requireSession`), or under a protected path of its own.
 *
 * On a protected path it keeps the session alive, as `@sesame/next`'s guard does: the cookies the
 * session read sets go on the event's response when the request goes on, and on the redirect
 * when it does not (a cleared cookie that was no good).
 *
 * While the storage cannot be reached (a database restart, a failover), a protected path is
 * answered with the core's `503` (`unavailableAnswer`): the "try again in a moment" page for a
 * browser, `{ error: "StorageUnavailable", message }` for a script that asks for JSON, with
 * `Retry-After` either way and no cookie. Never the sign-in redirect: nothing is known of the
 * visitor's session. Other paths go on as ever (they read no session), and nothing is logged per
 * request (the core logs an outage once).
 *
 * The auth routes under the prefix are never guarded, whatever `protect` says: they are how a
 * visitor signs in (the built-in sign-in page, the callbacks) and how the browser reads the
 * session, so guarding them could only loop. `protect: ["/"]` thus guards the whole app but them.
 *
 * A path is protected when any form Solid Router may route to a page is: Solid Router compares a
 * route's fixed segments without regard to case (`/Dashboard` renders the page `/dashboard`) and
 * ignores a trailing slash, so the guard compares the core's `routedForms` of the path (decoded,
 * without a trailing slash, case folded) with the `protect` list folded the same way, and asks a
 * `protect` function about each. A path that does not decode is protected.
 *
 * @module
 */
import { foldedPath, isStorageUnavailable, protectedPaths, routedForms, setCookieLines, unavailableAnswer, type ProtectedPaths, type SessionRead } from "@sesame/core/integration"
import type { SolidAuthOptions } from "./config.js"
import { coreConfig } from "./config.js"
import type { RequestEventLike } from "./event.js"
import { writeSessionCookies } from "./keep-alive.js"
import { isUnderPrefix } from "./prefix.js"
import { guardRedirect, guardTarget } from "./redirect.js"
import { readOrNull } from "./session.js"

/** Which paths need a signed-in user, and where the others are sent. */
export interface ProtectOptions {
  /**
   * Protected paths: each string covers that path and everything below it (`/account` covers
   * `/account` and `/account/settings`, not `/accounts`); or a predicate over the request's path.
   * The auth routes under the prefix are never protected.
   */
  protect: ProtectedPaths
  /**
   * Where a visitor without a session (or without a user) is redirected. By default the sign-in
   * page (`pages.signIn`, else the built-in `<prefix>/signin`) with `callbackUrl` set to the page
   * asked for. A path given here is used as given (it gets the `callbackUrl` only when it is the
   * sign-in page itself).
   */
  redirectTo?: string
}

/** A SolidStart `onRequest` middleware: a redirect (or a `503` during a storage outage) `Response`, or undefined to go on. */
export type AuthMiddleware = (event: RequestEventLike) => Promise<Response | undefined>

/**
 * Makes the middleware. Checks its options at once: a bad path, or a redirect target that is itself
 * protected (every visit would redirect to itself), throws a `TypeError`.
 *
 * @example
 * ```ts
 * // src/middleware.ts (app.config.ts / vite.config.ts: middleware: "./src/middleware.ts")
 * import { createMiddleware } from "@solidjs/start/middleware"
 * import { authMiddleware } from "@sesame/solid-start"
 * import { authConfig } from "~/lib/auth"
 *
 * export default createMiddleware({
 *   onRequest: [authMiddleware(authConfig, { protect: ["/account"] })],
 * })
 * ```
 */
export function authMiddleware(options: SolidAuthOptions, { protect, redirectTo }: ProtectOptions): AuthMiddleware {
  const core = coreConfig(options, "authMiddleware")
  const target = guardTarget(options, core.prefix, redirectTo, "authMiddleware")
  const listed = protectedPaths(Array.isArray(protect) ? protect.map((path: unknown) => (typeof path === "string" ? foldedPath(path) : path)) : protect, "authMiddleware")
  const isProtected = (pathname: string): boolean => {
    const forms = routedForms(pathname, true)
    if (forms === null) return true
    if (forms.every((form) => isUnderPrefix(form, core.prefix))) return false
    return forms.some((form) => listed(form))
  }
  if (isProtected(new URL(target.path, "http://localhost").pathname)) {
    throw new TypeError(`authMiddleware: the redirect target ${JSON.stringify(target.path)} is itself protected; signed-out visitors would be redirected forever.`)
  }
  return async (event) => {
    if (!isProtected(new URL(event.request.url).pathname)) return undefined
    let read: SessionRead
    try {
      read = await readOrNull(core.config, event.request, "authMiddleware")
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      const answer = unavailableAnswer(core.config, event.request, error)
      return new Response(answer.body, { status: answer.status, headers: answer.headers })
    }
    const { session, cookies } = read
    if (session?.user) {
      if (event.response) writeSessionCookies(event.response.headers, cookies)
      return undefined
    }
    // On the redirect itself, not the event: SolidStart 1.x would send the event's lines as well.
    const redirect = guardRedirect(target, event.request, core)
    for (const line of setCookieLines(cookies)) redirect.headers.append("set-cookie", line)
    return redirect
  }
}
