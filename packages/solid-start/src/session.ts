/**
 * Reading the session on the server: `getSession(request, options)`, and `requireSession`, the
 * server-side guard of a protected route.
 *
 * The session is read through core's own `session` endpoint under the configured prefix (never a
 * hard-coded path, which is what Auth.js's SolidStart integration does), with the request's
 * cookies and the headers core derives the origin from. So it is exactly what the browser would get
 * from `GET <prefix>/session`: the `jwt` and `session` callbacks run, a database session is looked
 * up and extended.
 *
 * It fails closed: anything but a `200` with a session object (a configuration error, an adapter
 * that throws, a malformed answer) is `null`. Core logs the cause.
 *
 * It reads and does not write: cookies the session endpoint would set (a JWT session's sliding
 * expiry) are dropped, because a server-rendered page may already have sent its headers. The
 * browser renews them whenever it fetches the session itself (the client's `createSession` does on
 * load and on focus).
 *
 * @module
 */
import { Auth, type Session, type User } from "@sesame/core"
import { coreConfig, type SolidAuthOptions } from "./config.js"
import { guardRedirect, guardTarget } from "./redirect.js"

/** A session with a user: what a protected route can rely on. */
export type AuthenticatedSession = Session & { user: User }

/**
 * The session of `request`, or `null` when there is none or it cannot be read.
 *
 * @param request - the incoming request (`event.request` of an `APIEvent`, or
 *   `getRequestEvent()!.request` in a server function).
 * @param options - the configuration given to `SolidAuth` (its `prefix` is honoured; `raw` is not
 *   accepted).
 * @returns what `GET <prefix>/session` returns: the session as the `session` callback shapes it, or
 *   `null`.
 */
export async function getSession(request: Request, options: SolidAuthOptions): Promise<Session | null> {
  const { prefix, config } = coreConfig(options, "getSession")
  // The request's own headers: its cookies, and the Host / X-Forwarded-* headers the origin comes from.
  const session = new Request(new URL(`${prefix}/session`, request.url), { method: "GET", headers: request.headers })
  try {
    const response = await Auth(session, config)
    if (response.status !== 200) return null
    const body: unknown = await response.json()
    return isSession(body) ? body : null
  } catch {
    // Auth() does not throw; a body that is not JSON is the only way here, and it is no session.
    return null
  }
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
 * @param redirectTo - optional: a path on this site to send the visitor to instead, used as given
 *   (it gets the `callbackUrl` only when it is the sign-in page itself). Anything but a path
 *   (`https://…`, `//host`) throws a `TypeError`: the target is fixed by the app, never taken from
 *   a request.
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
export async function requireSession(request: Request, options: SolidAuthOptions, redirectTo?: string): Promise<AuthenticatedSession> {
  const core = coreConfig(options, "requireSession")
  const target = guardTarget(options, core.prefix, redirectTo, "requireSession")
  const session = await getSession(request, options)
  if (!session?.user) throw guardRedirect(target, request, core)
  return session as AuthenticatedSession
}

function isSession(value: unknown): value is Session {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}
