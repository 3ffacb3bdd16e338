/**
 * `requireSession(config)`: the guard of protected routes, a `preHandler` (or `onRequest`) hook.
 *
 * Policy:
 * 1. A request whose session has a user goes on, with the session in `request.session`.
 * 2. Any other request is turned away, with the cookies the session read set (a cleared cookie
 *    that was no good): a client that wants JSON (`Accept: application/json` without
 *    `text/html`, or `X-Requested-With`, by the core's `wantsJson`) gets `401
 *    {"error":"Unauthorized","message":"Sign in first."}`; a page gets a `303 See Other` to the
 *    sign-in page with `callbackUrl` set to the path asked for, from the core's `signInPageUrl`:
 *    the built-in page, which sends the browser on to `pages.signIn` when the configuration names
 *    one. The return address is a path on this site whatever the request says (`//evil.example`
 *    becomes `/evil.example`), and the sign-in URL carries the app's origin only when the core
 *    accepts the request's host.
 *    Both are the same in every integration (`@sesame/express`, `@sesame/hono`,
 *    `@sesame/sveltekit`): `303` because a guard may answer a form's post, and only `303` tells
 *    every client to follow with a GET (a `307` would re-post the form, fields and all, to the
 *    sign-in page); the body carries `error` and SvelteKit's `message`, so that one client reads
 *    any of them.
 * 3. A session that cannot be read is no session (see `session.ts`): the visitor is turned away,
 *    never let through.
 * 4. But while the storage cannot be reached (`StorageUnavailable`), nothing is known of the
 *    session: neither the redirect nor the `401`, which would sign every user out for the length
 *    of a database restart, but the core's `503` with `Retry-After` (`unavailable.ts`): the
 *    "Try again in a moment" page for a page, JSON for a client that wants JSON; no cookie. The
 *    route does not run.
 * 5. With `allow` (`requireSession(config, { allow })`), a signed-in request goes on only when
 *    `allow(session, request)` resolves to `true`. It is asked only once there is a user: a visitor
 *    without one is answered by policy 2 and `allow` is not called. Anything but `true` is a
 *    refusal: `403` with `{"error":"Forbidden","message":"Access denied."}` for a client that wants
 *    JSON (the same `wantsJson` rule as the `401`), else `403` with a one-line plain-text page;
 *    `Cache-Control: private, no-store`, the session's cookies kept. A `StorageUnavailable` thrown
 *    by `allow` is answered as policy 4; any other error goes to Fastify's error handling, and the
 *    route does not run.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { isStorageUnavailable, signInPageUrl, wantsJson } from "@sesame/core/integration"
import type { FastifyRequest } from "fastify"
import { checkConfig } from "./config.js"
import { requestOf } from "./request.js"
import { forbidden, seeOther, unauthorized } from "./response.js"
import { sessionRead } from "./session.js"
import type { AuthenticatedSession, SesameHook } from "./types.js"
import { answerUnavailable } from "./unavailable.js"

/** Options of {@link requireSession}. */
export interface RequireSessionOptions {
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user; a
   * visitor without one gets the sign-in redirect or the `401` as ever. Anything but `true` answers
   * `403`: `{"error":"Forbidden","message":"Access denied."}` to a client that wants JSON, a
   * plain-text "Access denied." to a page. A `StorageUnavailable` it throws is answered `503` with
   * `Retry-After`, as an outage of the session read is; any other error goes to Fastify's error
   * handling.
   *
   * @param session - the request's session, with a user.
   * @param request - the Fastify request, for `api(request, config)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * // Only members whose roles grant project:create, with the organizations plugin in `plugins`.
   * app.post("/api/projects", {
   *   preHandler: requireSession(authConfig, {
   *     allow: async (session, request) => (await api(request, authConfig).hasPermission(session.organization?.id, { project: ["create"] })) === true,
   *   }),
   * }, createProject)
   * ```
   */
  allow?: (session: AuthenticatedSession, request: FastifyRequest) => boolean | Promise<boolean>
}

/** What the guard found for a request. */
type Outcome = { readonly session: AuthenticatedSession } | "signedOut" | "forbidden"

/**
 * Makes the guard: a hook that lets a signed-in request through (its session in
 * `request.session`) and answers any other with a `303` to the sign-in page, or a `401` JSON body
 * for a client that wants JSON. While the storage cannot be reached, it answers `503` with
 * `Retry-After` instead: the core's "Try again in a moment" page, or JSON. With `options.allow`, a
 * signed-in request it refuses gets a `403`.
 *
 * Put it on a route (`app.get("/account", { preHandler: requireSession(config) }, handler)`), or
 * on every route of a plugin (`scope.addHook("preHandler", requireSession(config))`): Fastify's
 * encapsulation keeps it to the routes registered in that plugin, whatever their path.
 *
 * @param config - the configuration given to the {@link sesame} plugin.
 * @param options - `allow`: a check of the signed-in session (see {@link RequireSessionOptions}).
 *   One that is not a function throws a `TypeError` here.
 *
 * @example
 * ```ts
 * app.get("/account", { preHandler: requireSession(authConfig) }, async (request) => `Signed in as ${request.session?.user?.email}`)
 * app.get("/api/me", { preHandler: requireSession(authConfig) }, async (request) => request.session?.user)
 * ```
 */
export function requireSession(config: AuthConfig, options: RequireSessionOptions = {}): SesameHook {
  checkConfig(config, "requireSession")
  const { allow } = options
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`requireSession: \`allow\` must be a function of the session and the request; got ${allow === null ? "null" : typeof allow}.`)
  }
  return (request, reply, done) => {
    const outcome = sessionRead(request, reply, config).then(async ({ session }): Promise<Outcome> => {
      if (!session?.user) return "signedOut"
      const authenticated = session as AuthenticatedSession
      // Only `true` lets the request on (policy 5): `undefined` or a truthy object is a refusal.
      if (allow && (await allow(authenticated, request)) !== true) return "forbidden"
      return { session: authenticated }
    })
    outcome.then(
      (found) => {
        if (found === "forbidden") {
          forbidden(reply, wantsJson(requestOf(request).headers))
        } else if (found !== "signedOut") {
          request.session = found.session
          done()
        } else if (wantsJson(requestOf(request).headers)) {
          unauthorized(reply)
        } else {
          seeOther(reply, signInPageUrl(config, requestOf(request), request.raw.url ?? "/"))
        }
      },
      (error: unknown) => {
        if (isStorageUnavailable(error) && !reply.sent) answerUnavailable(reply, request, config, error)
        else done(error instanceof Error ? error : new Error(String(error)))
      },
    )
  }
}
