/**
 * `requireSession(config)`: the guard of protected routes.
 *
 * Policy:
 * 1. A request whose session has a user goes on, with the session in `res.locals.session`.
 * 2. Any other request is turned away, with the cookies the session read set (a cleared cookie
 *    that was no good): a client that wants JSON (`Accept: application/json` without
 *    `text/html`, or `X-Requested-With`, by the core's `wantsJson`) gets `401
 *    {"error":"Unauthorized","message":"Sign in first."}`; a page gets a `303 See Other` to the
 *    sign-in page with `callbackUrl` set to the path asked for, from the core's `signInPageUrl`:
 *    the built-in page, which sends the browser on to `pages.signIn` when the configuration names
 *    one. The return address is a path on this site whatever the request says (`//evil.example`
 *    becomes `/evil.example`), and the sign-in URL carries the app's origin only when the core
 *    accepts the request's host.
 *    Both are the same in every integration (`@sesame/hono`, `@sesame/sveltekit`): `303` because
 *    a guard may answer a form's post, and only `303` tells every client to follow with a GET
 *    (a `307` would re-post the form, fields and all, to the sign-in page); the body carries
 *    `error` and SvelteKit's `message`, so that one client reads any of them.
 * 3. A session that cannot be read is no session (see `session.ts`): the visitor is turned away,
 *    never let through.
 * 4. But while the storage cannot be reached (`StorageUnavailable`), nothing is known of the
 *    session: neither the redirect nor the `401`, which would sign every user out for the length
 *    of a database restart, but the core's `503` with `Retry-After` (`unavailable.ts`): the
 *    "Try again in a moment" page for a page, JSON for a client that wants JSON; no cookie. The
 *    route does not run. Without a session cookie, a database session is not looked up: the
 *    visitor is signed out, and policy 2 applies.
 * 5. With `allow` (`requireSession(config, { allow })`), a signed-in request goes on only when
 *    `allow(session, req)` resolves to `true`. It is asked only once there is a user: a visitor
 *    without one is answered by policy 2 and `allow` is not called. Anything but `true` is a
 *    refusal: `403` with `{"error":"Forbidden","message":"Access denied."}` for a client that wants
 *    JSON (the same `wantsJson` rule as the `401`), else `403` with a one-line plain-text page (not
 *    the core's `error?error=AccessDenied` page, which speaks of signing in, to a user who is
 *    signed in); `Cache-Control: private, no-store`, the session's cookies kept. A
 *    `StorageUnavailable` thrown by `allow` (a permission read from the database during an outage)
 *    is answered as policy 4; any other error goes to `next(error)`, Express's error handlers,
 *    and the route does not run.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { isStorageUnavailable, signInPageUrl, wantsJson } from "@sesame/core/integration"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import { forbidden, seeOther, unauthorized } from "./response.js"
import { sessionRead, type AuthenticatedSession } from "./session.js"
import type { ExpressRequest, Middleware } from "./types.js"
import { answerUnavailable } from "./unavailable.js"

/** Options of {@link requireSession}. */
export interface RequireSessionOptions {
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user; a
   * visitor without one gets the sign-in redirect or the `401` as ever. Anything but `true` answers
   * `403`: `{"error":"Forbidden","message":"Access denied."}` to a client that wants JSON, a
   * plain-text "Access denied." to a page. A `StorageUnavailable` it throws is answered `503` with
   * `Retry-After`, as an outage of the session read is; any other error goes to `next(error)`.
   *
   * @param session - the request's session, with a user.
   * @param req - the Express request, for `api(req, config)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * // Only members whose roles grant project:create, with the organizations plugin in `plugins`.
   * app.post("/api/projects", requireSession(authConfig, {
   *   allow: async (session, req) => (await api(req, authConfig).hasPermission(session.organization?.id, { project: ["create"] })) === true,
   * }), createProject)
   * ```
   */
  allow?: (session: AuthenticatedSession, req: ExpressRequest) => boolean | Promise<boolean>
}

/** What the guard found for a request. */
type Outcome = { readonly session: AuthenticatedSession } | "signedOut" | "forbidden"

/**
 * Makes the guard: a middleware that lets a signed-in request through (its session in
 * `res.locals.session`) and answers any other with a redirect to the sign-in page, or a `401`
 * JSON body for a client that wants JSON. While the storage cannot be reached, it answers `503`
 * with `Retry-After` instead: the core's "Try again in a moment" page, or JSON. With
 * `options.allow`, a signed-in request it refuses gets a `403`.
 *
 * Put it on a route (`app.get("/account", requireSession(config), handler)`): the check runs on
 * the server before the route's handler. Or in front of a group (`app.use("/admin",
 * requireSession(config))`, `router.use(…)`): it intercepts every request Express routes below
 * that path, whatever answers it next. Serve guarded files after it at the same path
 * (`app.use("/reports", express.static(dir))`), never from a static folder mounted above it:
 * Express matches the guard's path as sent, `express.static` decodes it, so `/%72eports/…` would
 * skip the guard.
 *
 * @param config - the configuration given to {@link SesameAuth}.
 * @param options - `allow`: a check of the signed-in session (see {@link RequireSessionOptions}).
 *   One that is not a function throws a `TypeError` here.
 *
 * @example
 * ```ts
 * app.get("/account", requireSession(authConfig), (req, res) => {
 *   res.type("text/plain").send(`Signed in as ${res.locals.session.user.email}`)
 * })
 * app.get("/api/me", requireSession(authConfig), (req, res) => res.json(res.locals.session.user))
 * app.use("/admin", requireSession(authConfig, { allow: (session) => session.user.email === "admin@example.com" }))
 * ```
 */
export function requireSession(config: AuthConfig, options: RequireSessionOptions = {}): Middleware<{ session: AuthenticatedSession }> {
  checkConfig(config, "requireSession")
  const { allow } = options
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`requireSession: \`allow\` must be a function of the session and the request; got ${allow === null ? "null" : typeof allow}.`)
  }
  return (req, res, next) => {
    const outcome = sessionRead(req, config).then(async ({ session }): Promise<Outcome> => {
      if (!session?.user) return "signedOut"
      const authenticated = session as AuthenticatedSession
      // Only `true` lets the request on (policy 5): `undefined` or a truthy object is a refusal.
      if (allow && (await allow(authenticated, req)) !== true) return "forbidden"
      return { session: authenticated }
    })
    outcome.then((found) => {
      if (found === "forbidden") {
        forbidden(res, wantsJson(requestOf(req).headers))
      } else if (found !== "signedOut") {
        res.locals.session = found.session
        next()
      } else if (wantsJson(requestOf(req).headers)) {
        unauthorized(res)
      } else {
        seeOther(res, signInPageUrl(config, requestOf(req), req.originalUrl ?? req.url ?? "/"))
      }
    }, (error: unknown) => {
      if (isStorageUnavailable(error) && !res.headersSent) answerUnavailable(res, req, config, error)
      else next(error)
    })
  }
}
