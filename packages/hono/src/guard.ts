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
 *
 * @module
 */
import { appOrigin, isStorageUnavailable, setCookieLines, signInPageUrl, unauthorizedBody, wantsJson, type SessionRead } from "@sesame/core/integration"
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
 *
 * @param config - the configuration, or a function of the context returning it. A configuration
 *   that is not an object throws a `TypeError` here.
 *
 * @example
 * ```ts
 * app.use("/account/*", requireSession(authConfig))
 * app.get("/api/me", requireSession(authConfig), (c) => c.json(c.get("session").user))
 * ```
 */
export function requireSession<E extends Env = Env>(config: SesameConfig<E>): MiddlewareHandler<E & { Variables: AuthenticatedVariables }> {
  return readingMiddleware<E, E & { Variables: AuthenticatedVariables }>(config, "requireSession", async (c, next, { session, cookies }, prepared) => {
    if (!session?.user) {
      const answer = refusal(c, prepared, cookies)
      // Through `c`, so that headers other middleware set for the response stay on it.
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
 * for a JSON client), which Hono's error handler sends. An `app.onError` of the app's own should
 * answer `HTTPException`s with `err.getResponse()`, as Hono's documentation shows. While the
 * storage cannot be reached, the `HTTPException` is a `503` holding the core's "Try again in a
 * moment" page (or JSON) with `Retry-After`, its `cause` the `StorageUnavailable`.
 *
 * @param config - optional after `sessionMiddleware` (or a guard) ran for the request: theirs is used.
 *
 * @example
 * ```ts
 * app.get("/billing", async (c) => {
 *   const session = await assertSession(c)
 *   return c.text(`Invoices of ${session.user.email}`)
 * })
 * ```
 */
export async function assertSession<E extends Env = Env>(c: Context<E>, config?: SesameConfig<E>): Promise<AuthenticatedSession> {
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
  writeOnce(c, prepared, cookies)
  return session as AuthenticatedSession
}
