/**
 * `auth` as a proxy (Next.js 16, Node.js runtime), as middleware (Next.js 15, and 16 while it is
 * deprecated there: Edge runtime), and `auth(handler)` around a proxy, middleware or route handler.
 *
 * Policy:
 * 1. Requests for the auth endpoints (under `basePath`) go straight through, without a session
 *    read: the endpoints manage the session cookie themselves, and a refreshed cookie set here
 *    could race a sign-out's cleared one. A wrapped handler still runs, with `request.auth` null.
 * 2. Otherwise the session is read with the request's cookies (a read that fails counts as signed
 *    out, but for a storage outage: 7). The configured sign-in and error pages always go through:
 *    they are how a visitor gets a session, so refusing them can only loop.
 * 3. Otherwise `callbacks.authorized({ request, auth })` decides: `true` or nothing lets the request
 *    through, `false` redirects (307) to the sign-in page with `callbackUrl` set to this page, and a
 *    `Response` is sent as it is. Without the callback every request goes through. A path with
 *    percent-encoding is asked about twice, as it came and decoded (Next.js serves the page of the
 *    decoded path: `/%64ashboard` is the dashboard), and the first refusal stands.
 * 4. A redirect returned by `authorized` is followed here first, as the browser would, through the
 *    same callback: when it comes back to a page already visited (or goes on for more than
 *    {@link maxHops} redirects), the browser would loop. That is logged as an error and handled
 *    like `false`, whose sign-in page is exempt (2) and so ends the chain.
 * 5. A wrapped handler runs only for requests that go through, with the session as `request.auth`.
 * 6. The cookies of the session read (a JWT with a later expiry, a database session's new expiry,
 *    or a cleared cookie) are set on whatever response leaves, so an active session stays alive.
 *    They are set through `NextResponse.cookies`, which Next.js also hands to the page rendered
 *    for this request, so server components see the refreshed session.
 * 7. When the read finds the storage unreachable (`StorageUnavailable`: a database restart, a
 *    failover), nothing is known of the visitor's session, so it is never taken for "signed out"
 *    (no redirect to the sign-in page, no cookie set or cleared). A request that needs the session
 *    is answered with the core's `503` (`unavailableAnswer`: the "try again in a moment" page for
 *    a page, `{ error: "StorageUnavailable" }` for a script that asks for JSON, `Retry-After`
 *    either way): one with a wrapped handler (which would be handed a `request.auth` that is not
 *    known), and one that `authorized` does not let through as a signed-out visitor (asked with
 *    `auth: null`; `false`, a `Response` or a redirect all mean the page depends on the session).
 *    The rest go through as they would without a session check: the auth endpoints (never read),
 *    the sign-in and error pages, every request when there is no `authorized` and no handler
 *    (the page's own `auth()` throws, for its error boundary), and the pages `authorized` lets
 *    signed-out visitors see. Nothing is logged per request: the core logs an outage once.
 * 8. `auth(handler, { allow })`: once `authorized` lets a request through (3), `allow(session,
 *    request)` must resolve to `true` for the handler to run. A request without a signed-in user
 *    is answered as `authorized` returning `false` (the sign-in redirect) and `allow` is not
 *    called; the sign-in and error pages (2) and the auth endpoints (1) are not checked. Anything
 *    but `true` is a refusal: `403` with `{ "error": "Forbidden", "message": "Access denied." }`
 *    for a client that wants JSON (the core's `wantsJson`, the rule of the other integrations'
 *    `401`), else `403` with a one-line plain-text page (not the core's `error?error=AccessDenied`
 *    page, which speaks of signing in, to a user who is signed in); `Cache-Control: private,
 *    no-store`, with the session's cookies (6). A `StorageUnavailable` thrown by `allow` is the
 *    core's `503` as in 7; any other error is thrown on, to Next.js.
 *
 * Only web APIs and `next/server` are used: this file is part of the Edge bundle of `middleware.ts`.
 *
 * @module
 */
import type { ResponseCookie, Session } from "@sesame/core"
import type { StorageUnavailable } from "@sesame/core/errors"
import { decodedPath, isStorageUnavailable, logFor, readSession, unavailableAnswer, wantsJson } from "@sesame/core/integration"
import { NextRequest, NextResponse } from "next/server.js"
import { load, type Prepared } from "./config.js"
import { withCookies } from "./cookies.js"
import { publicOrigin } from "./origin.js"
import type { AuthenticatedHandler, AuthenticatedSession, GuardOptions, NextAuthRequest, PrimaryAuthConfigInput } from "./types.js"

/** Redirects followed through `authorized` before a chain counts as a loop. */
export const maxHops = 10

function pathOf(page: string | undefined, origin: string): string | undefined {
  if (!page) return undefined
  try {
    const url = new URL(page, origin)
    return url.origin === origin ? url.pathname : undefined
  } catch {
    return undefined
  }
}

function isAuthEndpoint(prepared: Prepared, path: string): boolean {
  return path === prepared.basePath || path.startsWith(`${prepared.basePath}/`)
}

function isExempt(prepared: Prepared, url: URL, origin: string): boolean {
  const path = url.pathname
  if (isAuthEndpoint(prepared, path)) return true
  return path === pathOf(prepared.pages?.signIn, origin) || path === pathOf(prepared.pages?.error, origin)
}

function isRedirect(response: Response): boolean {
  return response.status >= 300 && response.status < 400 && response.headers.has("location")
}

/** Where `false` sends the visitor: the sign-in page, with a `callbackUrl` back to `url`. */
function signInRedirect(prepared: Prepared, url: URL, origin: string): Response {
  const target = new URL(prepared.pages?.signIn ?? `${prepared.basePath}/signin`, origin)
  target.searchParams.set("callbackUrl", `${url.pathname}${url.search}`)
  return NextResponse.redirect(target, 307)
}

type Decision = true | false | Response

/**
 * `request` as Next.js routes it when its path is percent-encoded: Next.js runs the proxy's matcher
 * on the decoded path and serves the page found under it (`/%64ashboard` renders the dashboard), so
 * `authorized` is asked about that path too (policy 3). Null when the path is already decoded.
 */
function routedRequest(request: NextRequest): NextRequest | null {
  const routed = decodedPath(request.nextUrl.pathname)
  if (routed === null || routed === request.nextUrl.pathname) return null
  const url = request.nextUrl.clone()
  url.pathname = routed
  return new NextRequest(url.href, { headers: request.headers, method: request.method, nextConfig: { basePath: request.nextUrl.basePath } })
}

async function decide(prepared: Prepared, request: NextRequest, url: URL, origin: string, auth: Session | null): Promise<Decision> {
  if (!prepared.authorized || isExempt(prepared, url, origin)) return true
  // The request as it came, then as Next.js routes it when that differs: a refusal of either stands.
  for (const asked of [request, routedRequest(request)]) {
    if (asked === null) continue
    const result = await prepared.authorized({ request: asked, auth })
    if (result instanceof Response) return result
    if (result === false) return false
  }
  return true
}

/** Follows a redirect from `authorized` through the same callback; true when the browser would loop. */
async function loops(prepared: Prepared, request: NextRequest, first: Response, origin: string, auth: Session | null): Promise<boolean> {
  const url = new URL(request.nextUrl.pathname + request.nextUrl.search, origin)
  const seen = new Set([url.pathname + url.search])
  let response = first
  for (let hop = 0; hop < maxHops; hop++) {
    const resolved = new URL(response.headers.get("location")!, url)
    // Redirects built from `request.nextUrl` carry Next's internal origin (localhost); Next.js makes
    // them relative, so they stay on this site too.
    if (resolved.origin !== origin && resolved.origin !== request.nextUrl.origin) return false
    const target = new URL(resolved.pathname + resolved.search, origin)
    const key = target.pathname + target.search
    if (seen.has(key)) return true
    seen.add(key)
    const probe = new NextRequest(target, { headers: request.headers })
    const next = await decide(prepared, probe, target, origin, auth)
    if (!(next instanceof Response) || !isRedirect(next)) return false
    response = next
  }
  return true
}

/** Runs the wrapped handler (if any) with the session as `request.auth`; no handler lets the request on. */
async function proceed<Context>(request: NextRequest, auth: Session | null, context: Context, handler?: AuthenticatedHandler<Context>): Promise<Response> {
  Object.defineProperty(request, "auth", { value: auth, enumerable: true, configurable: true })
  const response = handler ? await handler(request as NextAuthRequest, context) : undefined
  return response ?? NextResponse.next()
}

/** The core's `503` for `request` while the storage cannot be reached (policy 7). */
function unavailableResponse(prepared: Prepared, request: NextRequest, url: URL, error: StorageUnavailable): Response {
  const answer = unavailableAnswer(prepared.handlers, { headers: request.headers, url: url.href }, error)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}

/** Policy 7: the core's `503` for a request that depends on a session nobody can read now; else on, without a session. */
async function duringOutage<Context>(
  prepared: Prepared,
  request: NextRequest,
  url: URL,
  origin: string,
  error: StorageUnavailable,
  handler: AuthenticatedHandler<Context> | undefined,
): Promise<Response> {
  if (!handler && (await decide(prepared, request, url, origin, null)) === true) return NextResponse.next()
  return unavailableResponse(prepared, request, url, error)
}

/** The body of the `403` to a client that wants JSON (policy 8), in the shape of the other integrations' `401`. */
const forbiddenBody = { error: "Forbidden", message: "Access denied." } as const

/** The answer when `allow` refuses (policy 8). */
function forbidden(request: NextRequest): Response {
  const headers = { "cache-control": "private, no-store" }
  return wantsJson(request.headers)
    ? new Response(JSON.stringify(forbiddenBody), { status: 403, headers: { ...headers, "content-type": "application/json" } })
    : new Response(forbiddenBody.message, { status: 403, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } })
}

/**
 * Policy 8: `undefined` to go on, or the answer when there is no signed-in user or `allow` refuses
 * (with the session's cookies), or an outage in the check (the core's `503`, no cookie, as in
 * policy 7). Only `true` lets the request on; any other error is thrown.
 */
async function checkAllow(
  prepared: Prepared,
  request: NextRequest,
  url: URL,
  origin: string,
  session: Session | null,
  options: GuardOptions,
): Promise<{ answer: Response; withCookies: boolean } | undefined> {
  const { allow } = options
  if (!allow || isExempt(prepared, url, origin)) return undefined
  if (!session?.user) return { answer: signInRedirect(prepared, url, origin), withCookies: true }
  try {
    return (await allow(session as AuthenticatedSession, request)) === true ? undefined : { answer: forbidden(request), withCookies: true }
  } catch (error) {
    if (isStorageUnavailable(error)) return { answer: unavailableResponse(prepared, request, url, error), withCookies: false }
    throw error
  }
}

/** Throws a `TypeError` when `options.allow` is given and not a function (when the handler is wrapped). */
export function checkGuardOptions(options: unknown): GuardOptions {
  if (options === undefined) return {}
  const allow = (options as { allow?: unknown } | null)?.allow
  if (typeof options !== "object" || options === null || (allow !== undefined && typeof allow !== "function")) {
    throw new TypeError("auth(handler, options): `options.allow` must be a function of the session and the request.")
  }
  return options as GuardOptions
}

/** The guard, for one request; `handler` is the wrapped proxy, middleware or route handler. */
export async function guard<Context>(
  input: PrimaryAuthConfigInput,
  request: NextRequest,
  context: Context,
  handler?: AuthenticatedHandler<Context>,
  options: GuardOptions = {},
): Promise<Response> {
  let prepared: Prepared
  try {
    prepared = await load(input, request)
  } catch (error) {
    logFor(undefined).error("The lazy configuration function threw", error)
    return new Response("There is a problem with the server configuration. Check the server logs for more information.", { status: 500 })
  }
  if (isAuthEndpoint(prepared, request.nextUrl.pathname)) return proceed(request, null, context, handler)
  let session: Session | null = null
  let cookies: readonly ResponseCookie[] = []
  let unavailable: StorageUnavailable | undefined
  try {
    prepared.log.debug(`guard: reading the session for ${request.nextUrl.pathname}`)
    ;({ session, cookies } = await readSession(prepared.handlers, request))
  } catch (error) {
    // Policy 7: an outage is logged by the core, once; anything else fails closed, here.
    if (isStorageUnavailable(error)) unavailable = error
    else prepared.log.error("The guard could not read the session and treats the request as signed out", error)
  }
  const origin = publicOrigin(prepared, request.headers, request.url)
  const url = new URL(request.nextUrl.pathname + request.nextUrl.search, origin)
  if (unavailable) return duringOutage(prepared, request, url, origin, unavailable, handler)

  let decision = await decide(prepared, request, url, origin, session)
  if (decision instanceof Response && isRedirect(decision) && (await loops(prepared, request, decision, origin, session))) {
    prepared.log.error(
      `callbacks.authorized redirects ${url.pathname} to ${decision.headers.get("location")}, and following it through the same callback comes back round: the browser would loop. Sending the visitor to the sign-in page instead. Let authorized allow the target, or leave it out of the matcher.`,
    )
    decision = false
  }
  if (decision === false) return withCookies(signInRedirect(prepared, url, origin), cookies)
  if (decision instanceof Response) return withCookies(decision, cookies)
  const refused = await checkAllow(prepared, request, url, origin, session, options)
  if (refused) return refused.withCookies ? withCookies(refused.answer, cookies) : refused.answer

  return withCookies(await proceed(request, session, context, handler), cookies)
}
