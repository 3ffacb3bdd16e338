/**
 * Protected routes, in both forms: `requireSession(config)`, the middleware that guards the routes
 * it is mounted on, and `assertSession(c)`, the check a route calls itself.
 *
 * Policy:
 * 1. A visitor without a session, or whose session has no user, is turned away. A client that asks
 *    for JSON and not for a page (`Accept: application/json`, `X-Requested-With`: the core's
 *    `wantsJson`) gets `401` with `{ "error": "Unauthorized", "message": "Sign in first." }`; a page
 *    gets a `303 See Other` to the core's sign-in endpoint (`signInPageUrl`), which shows the
 *    built-in page or forwards to `pages.signIn`, with `callbackUrl` set to the page asked for, so
 *    that signing in leads back to it. Both are the same in every integration (`@sesame/express`,
 *    `@sesame/sveltekit`): `303` because the guard may answer a form's post, and only `303` tells
 *    every client to follow with a GET; the body carries `error` and SvelteKit's `message`, so that
 *    one client reads any of them.
 * 2. The return address is a path on this site: a `GET` or `HEAD` request returns to itself; any
 *    other (a form's post) to the page it was posted from, its `Referer` when that is on the app's
 *    origin, else to `/`. Leading slashes collapse, so `//evil.example` is never a
 *    protocol-relative address.
 * 3. The redirect is absolute on the app's origin by the core's rule (`AUTH_URL`, a trusted `Host`,
 *    a loopback `Host`), and a path when the core refuses the request's host: a forged `Host` or
 *    `X-Forwarded-Host` is never written into it.
 * 4. Neither answer is cached (`Cache-Control: private, no-store`): it depends on the cookies.
 * 5. The cookies of the read (a cleared cookie that was no good) go on the refusal too.
 * 6. The auth routes under the base path are never guarded: they are how a visitor signs in.
 * 7. While the storage cannot be reached (`StorageUnavailable`), nothing is known of the session:
 *    neither the redirect nor the `401`, which would sign every user out for the length of a
 *    database restart, but the core's `503` with `Retry-After` (`unavailable.ts`), thrown as an
 *    `HTTPException`: the "Try again in a moment" page, or JSON; no cookie; the route does not run.
 *    Without a session cookie a database session is not looked up: the visitor is signed out, and
 *    policy 1 applies.
 * 8. With `allow` (`requireSession(config, { allow })`, `assertSession(c, config, { allow })`), a
 *    signed-in request goes on only when `allow(session, c)` resolves to `true`. It is asked only
 *    once there is a user: a visitor without one is answered by policy 1, and `allow` is not
 *    called. Anything but `true` is a refusal: `403` with `{ "error": "Forbidden", "message":
 *    "Access denied." }` for a client that wants JSON (the same `wantsJson` rule as the `401`),
 *    else `403` with a one-line plain-text page (not the core's `error?error=AccessDenied` page,
 *    which speaks of signing in, to a user who is signed in); `Cache-Control: private, no-store`
 *    and the read's cookies, as on the other refusals. A `StorageUnavailable` thrown by `allow` (a
 *    permission read from the database during an outage) is answered as policy 7; any other error
 *    is thrown on, to Hono's error handler (`app.onError`), and the route does not run.
 *
 * @module
 */
import { appOrigin, forbiddenBody, isStorageUnavailable, setCookieLines, signInPageUrl, unauthorizedBody, wantsJson, type SessionRead } from "@sesame/core/integration"
import type { ResponseCookie } from "@sesame/core"
import type { Context, Env, MiddlewareHandler } from "hono"
import { HTTPException } from "hono/http-exception"
import { configFor, currentConfig, type Prepared, type SesameConfig } from "./config.js"
import { keepAlive } from "./cookies.js"
import { readingMiddleware, readOf, writeOnce } from "./session.js"
import { unavailableException } from "./unavailable.js"
import type { AuthenticatedSession, AuthenticatedVariables } from "./types.js"

/** The page to come back to after signing in (policy 2). */
function returnAddress(c: Context, prepared: Prepared): string {
  const url = new URL(c.req.url)
  if (c.req.method === "GET" || c.req.method === "HEAD") return `${url.pathname}${url.search}`
  const referer = c.req.header("referer")
  const origin = appOrigin(prepared.config, { headers: c.req.raw.headers, url: c.req.url })
  if (referer === undefined || origin === null || !URL.canParse(referer)) return "/"
  const page = new URL(referer)
  return page.origin === origin ? `${page.pathname}${page.search}` : "/"
}

/** The body of the `401`, as in every integration and the core's own `401` (policy 1). */
const unauthorizedText = JSON.stringify(unauthorizedBody)

/** The body of the `403` to a client that wants JSON (policy 8): the core's, the same in every integration. */
const forbiddenText = JSON.stringify(forbiddenBody)

/** Options of {@link requireSession} and {@link assertSession}. */
export interface GuardOptions<E extends Env = Env> {
  /**
   * A check of the signed-in session that the app decides (a role, a plugin's permission): the
   * request goes on only when it resolves to `true`. Called only for a session with a user; a
   * visitor without one gets the sign-in redirect or the `401` as ever. Anything but `true` answers
   * `403`: `{ "error": "Forbidden", "message": "Access denied." }` to a client that wants JSON, a
   * plain-text "Access denied." to a page. A `StorageUnavailable` it throws is the `503` of an
   * outage (an `HTTPException`); any other error is thrown on, to Hono's error handler.
   *
   * @param session - the request's session, with a user.
   * @param c - the request's context, for `api(c)` (the plugins' server functions).
   *
   * @example
   * ```ts
   * // Only members whose roles grant project:create, with the organizations plugin in `plugins`.
   * app.post("/api/projects", requireSession(authConfig, {
   *   allow: async (session, c) => (await api(c).hasPermission(session.organization?.id, { project: ["create"] })) === true,
   * }), createProject)
   * ```
   */
  allow?: (session: AuthenticatedSession, c: Context<E>) => boolean | Promise<boolean>
}

/** Throws a `TypeError` when `allow` is given and not a function. */
function checkOptions(options: { readonly allow?: unknown } | undefined, owner: string): void {
  const allow = options?.allow
  if (allow !== undefined && typeof allow !== "function") {
    throw new TypeError(`${owner}: \`allow\` must be a function of the session and the context; got ${allow === null ? "null" : typeof allow}.`)
  }
}

/**
 * Whether `options.allow` lets `session` through (policy 8): only `true` does. An outage in the
 * check is the core's `503` as an `HTTPException` (policy 7); any other error is thrown as it is.
 */
async function allowed<E extends Env>(c: Context<E>, prepared: Prepared, session: AuthenticatedSession, options: GuardOptions<E>): Promise<boolean> {
  if (!options.allow) return true
  try {
    return (await options.allow(session, c)) === true
  } catch (error) {
    throw isStorageUnavailable(error) ? unavailableException(c, prepared, error) : error
  }
}

/** The answer to a signed-in request that `allow` refused (policy 8, with 4 and 5). */
function forbidden(c: Context, cookies: readonly ResponseCookie[]): Response {
  const json = wantsJson(c.req.raw.headers)
  const headers = new Headers({ "cache-control": "private, no-store", "content-type": json ? "application/json" : "text/plain; charset=utf-8" })
  for (const line of setCookieLines(cookies)) headers.append("set-cookie", line)
  return new Response(json ? forbiddenText : forbiddenBody.message, { status: 403, headers })
}

/** The answer to a visitor without a session (policy 1, 3, 4 and 5). */
function refusal(c: Context, prepared: Prepared, cookies: readonly ResponseCookie[]): Response {
  const headers = new Headers({ "cache-control": "private, no-store" })
  for (const line of setCookieLines(cookies)) headers.append("set-cookie", line)
  if (wantsJson(c.req.raw.headers)) {
    headers.set("content-type", "application/json")
    return new Response(unauthorizedText, { status: 401, headers })
  }
  headers.set("location", signInPageUrl(prepared.config, { headers: c.req.raw.headers, url: c.req.url }, returnAddress(c, prepared)))
  return new Response(null, { status: 303, headers })
}

/**
 * The middleware that guards the routes it is mounted on: a visitor without a signed-in session
 * is sent to the sign-in page (and back once signed in) with a `303`, and a JSON client gets `401`
 * `{ "error": "Unauthorized", "message": "Sign in first." }`. Behind it, `c.get("session")` is the
 * session, with a user. The session is kept alive as by `sessionMiddleware`, whose read it shares.
 * While the storage cannot be reached, it throws an `HTTPException(503)` instead: the core's
 * "Try again in a moment" page (or JSON) with `Retry-After`, never the redirect or the `401`.
 * With `options.allow`, a signed-in request it refuses gets a `403`.
 *
 * @param config - the configuration, or a function of the context returning it. A configuration
 *   that is not an object throws a `TypeError` here.
 * @param options - `allow`: a check of the signed-in session (see {@link GuardOptions}). One that
 *   is not a function throws a `TypeError` here.
 *
 * @example
 * ```ts
 * app.use("/account/*", requireSession(authConfig))
 * app.get("/api/me", requireSession(authConfig), (c) => c.json(c.get("session").user))
 * app.use("/admin/*", requireSession(authConfig, { allow: (session) => session.user.email === "admin@example.com" }))
 * ```
 */
export function requireSession<E extends Env = Env>(config: SesameConfig<E>, options: GuardOptions<E> = {}): MiddlewareHandler<E & { Variables: AuthenticatedVariables }> {
  checkOptions(options, "requireSession")
  return readingMiddleware<E, E & { Variables: AuthenticatedVariables }>(config, "requireSession", async (c, next, { session, cookies }, prepared) => {
    if (!session?.user) {
      const answer = refusal(c, prepared, cookies)
      // Through `c`, so that headers other middleware set for the response stay on it.
      return c.newResponse(answer.body, answer)
    }
    if (!(await allowed(c as Context<E>, prepared, session as AuthenticatedSession, options))) {
      const answer = forbidden(c, cookies)
      return c.newResponse(answer.body, answer)
    }
    c.set("session", session as AuthenticatedSession)
    await next()
    keepAlive(c, cookies)
    return undefined
  })
}

/**
 * The check a route makes itself: the session, with a user, or it throws Hono's `HTTPException`
 * holding the answer `requireSession` would give (the redirect to the sign-in page, or the `401`
 * for a JSON client; the `403` when `options.allow` refuses), which Hono's error handler sends. An
 * `app.onError` of the app's own should answer `HTTPException`s with `err.getResponse()`, as
 * Hono's documentation shows. While the storage cannot be reached, the `HTTPException` is a `503`
 * holding the core's "Try again in a moment" page (or JSON) with `Retry-After`, its `cause` the
 * `StorageUnavailable`.
 *
 * @param config - optional after `sessionMiddleware` (or a guard) ran for the request: theirs is
 *   used (`undefined` to give `options` without one).
 * @param options - `allow`: a check of the signed-in session (see {@link GuardOptions}).
 *
 * @example
 * ```ts
 * app.get("/billing", async (c) => {
 *   const session = await assertSession(c)
 *   return c.text(`Invoices of ${session.user.email}`)
 * })
 * app.get("/admin", async (c) => {
 *   await assertSession(c, undefined, { allow: (session) => session.user.email === "admin@example.com" })
 *   return c.text("Admin area")
 * })
 * ```
 */
export async function assertSession<E extends Env = Env>(c: Context<E>, config?: SesameConfig<E>, options: GuardOptions<E> = {}): Promise<AuthenticatedSession> {
  checkOptions(options, "assertSession")
  const prepared = config === undefined ? currentConfig(c, "assertSession") : await configFor(c, config, "assertSession")
  let read: SessionRead
  try {
    read = await readOf(c, prepared, "assertSession").result
  } catch (error) {
    throw isStorageUnavailable(error) ? unavailableException(c, prepared, error) : error
  }
  const { session, cookies } = read
  if (!session?.user) {
    const answer = refusal(c, prepared, cookies)
    throw new HTTPException(answer.status === 401 ? 401 : 303, { res: answer, message: "Sign-in required" })
  }
  if (!(await allowed(c, prepared, session as AuthenticatedSession, options))) {
    throw new HTTPException(403, { res: forbidden(c, cookies), message: "Access denied" })
  }
  writeOnce(c, prepared, cookies)
  return session as AuthenticatedSession
}
