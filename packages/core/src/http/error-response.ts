/**
 * The one place that turns a failure into a response.
 *
 * - A `BadRequest` (the client sent something malformed, named an endpoint or provider that does
 *   not exist, or sent a state-changing request from another site: `CrossSiteRequest`) answers
 *   its 4xx with a short JSON body, `{ error, message }`, and is logged at debug level only: it is
 *   the client's doing, not the server's.
 * - The storage could not be reached (`StorageUnavailable`, or a driver's error that says so:
 *   `adapters/unavailable.ts`): `503` with `Retry-After`, the unavailable page for a browser's
 *   navigation or form, else JSON `{ error: "StorageUnavailable", message }`; no cookie is set or
 *   cleared (nothing was decided about the session), and the outage was logged where it began.
 * - A failed `POST session` answers `400 null`.
 * - Any other error is logged in full, then the browser is redirected: errors of kind `signIn` to
 *   the sign-in page, the rest to the error page, with `error=<type>` when the type is client-safe
 *   and `error=Configuration` otherwise, plus `code` for `CredentialsSignin` (and `Retry-After` for
 *   a throttled attempt, `TooManyAttempts`, which is otherwise answered as `CredentialsSignin`).
 * - A configuration that does not resolve, or refuses the request's host, answers the
 *   `Configuration` error: the error page for the page endpoints, else `500` with a JSON message
 *   that says only that (the details are logged).
 *
 * @module
 */
import { reportedOutage } from "../adapters/availability.js"
import { storageUnavailable } from "../adapters/unavailable.js"
import type { Resolution } from "../config/resolve.js"
import { defaultTheme } from "../config/defaults.js"
import { AuthError, BadRequest, CallbackRouteError, CredentialsSignin, isClientError, TooManyAttempts, type StorageUnavailable } from "../errors.js"
import { errorPage } from "../pages/error.js"
import { translatorForRequest } from "../pages/i18n.js"
import { unavailablePage } from "../pages/unavailable.js"
import { errorPageLoops, pageLoops, signInPageUrl, translatorFor } from "../pages/where.js"
import type { PagesOptions } from "../types.js"
import type { RequestContext } from "./context.js"
import type { HeaderReader } from "./incoming.js"
import type { Action } from "./request.js"
import { json, noStore, type InternalResponse } from "./response.js"

/** Codes a credentials provider may put in the URL: short, and nothing to escape. */
const safeCode = /^[A-Za-z0-9_-]{1,64}$/

const configurationMessage = "There is a problem with the server configuration. Check the server logs for more information."

/** Actions whose configuration error is shown as a page rather than JSON. */
const pageActions: ReadonlySet<Action> = new Set<Action>(["signin", "signout", "error", "verify-request", "signup", "forgot-password", "reset-password", "verify-email"])

export function asAuthError(error: unknown): AuthError {
  return error instanceof AuthError ? error : new CallbackRouteError("An unexpected error occurred.", { cause: error })
}

export function badRequestResponse(error: BadRequest): InternalResponse {
  return json({ error: error.error, message: error.message }, error.status, noStore)
}

export async function errorResponse(ctx: RequestContext, error: unknown): Promise<InternalResponse> {
  const { config } = ctx
  if (error instanceof BadRequest) {
    config.logger.debug(`bad request: ${error.message}`)
    return { ...badRequestResponse(error), cookies: ctx.setCookies }
  }
  const unavailable = storageUnavailable(error)
  if (unavailable) {
    if (!reportedOutage(unavailable)) logUnreported(config, unavailable)
    return unavailableResponse(ctx, unavailable)
  }
  const authError = asAuthError(error)
  config.logger.error(authError)
  if (ctx.action === "session" && ctx.method === "POST") return { status: 400, body: null, headers: { ...noStore } }
  const type = isClientError(authError) ? authError.type : "Configuration"
  let url: URL
  if (authError.kind === "signIn") {
    url = new URL(signInPageUrl(ctx))
    const callbackUrl = await ctx.callbackUrl()
    if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  } else {
    url = config.pages.error && !errorPageLoops(ctx) ? new URL(config.pages.error, ctx.origin) : new URL(`${ctx.authUrl}/error`)
  }
  url.searchParams.set("error", type)
  if (authError instanceof CredentialsSignin) url.searchParams.set("code", safeCode.test(authError.code) ? authError.code : "credentials")
  const headers = authError instanceof TooManyAttempts ? { "Retry-After": String(authError.retryAfter) } : undefined
  return { redirect: url.href, cookies: ctx.setCookies, ...(headers ? { headers } : {}) }
}

/**
 * Whether a `503` for a storage outage is the page rather than JSON: the request accepts HTML (a
 * browser's navigation or form). A script's `fetch` or `curl` (any type accepted) gets JSON, which it can read.
 */
export function acceptsHtml(headers: HeaderReader): boolean {
  return /\btext\/html\b/i.test(headers.get("accept") ?? "")
}

/** When each configuration last logged an outage of storage it does not reach through the adapter. */
const unreportedAt = new WeakMap<object, number>()

/**
 * Logs an outage of storage Sesame does not call through the adapter (an app's counter store, a
 * database an app's callback reads): at most once a minute per configuration, since nothing tells
 * when such an outage ends, and one line per request would let a flood of requests flood the log.
 * While the adapter's own outage is logged and not over, it is that outage (most often the same
 * database, which the app's callback reached without Sesame): a debug line, not a second error.
 * Likewise the other way round: an outage of the adapter beginning after this line is this one.
 */
export function logUnreported(config: RequestContext["config"], error: StorageUnavailable): void {
  if (config.adapter?.down) return config.logger.debug("storage still unavailable", { error: error.message })
  const now = Date.now()
  if (now - (unreportedAt.get(config) ?? -Infinity) < 60_000) return
  unreportedAt.set(config, now)
  config.logger.error(error)
  config.adapter?.loggedElsewhere()
}

/** Endpoints answered in JSON whatever the request accepts: what scripts and clients call. */
const jsonActions: ReadonlySet<Action> = new Set<Action>(["session", "csrf", "providers"])

/** The JSON body of a `503` for a storage outage, for the core's endpoints and the integrations' guards. */
export function unavailableBody(error: StorageUnavailable): { error: "StorageUnavailable"; message: string } {
  return { error: "StorageUnavailable", message: `The service cannot reach its storage for a moment. Try again in ${error.retryAfter} s.` }
}

/**
 * The answer while the storage cannot be reached: the unavailable page for a browser's navigation
 * or form (it asked for HTML, and not for a redirect as JSON), else JSON; `503` and `Retry-After`
 * either way, and no cookie.
 */
function unavailableResponse(ctx: RequestContext, error: StorageUnavailable): InternalResponse {
  const headers = { ...noStore, "Retry-After": String(error.retryAfter) }
  const html = !ctx.returnRedirect && !jsonActions.has(ctx.action) && acceptsHtml(ctx.headers)
  if (!html) return json(unavailableBody(error), 503, headers)
  // A form cannot be posted again by a link: "try again" goes back to the page it was on.
  const retryUrl = ctx.method === "GET" ? `${ctx.origin}${ctx.url.pathname}${ctx.url.search}` : signInPageUrl(ctx)
  return unavailablePage({ retryUrl, retryAfter: error.retryAfter, theme: ctx.config.theme }, translatorFor(ctx))
}

/** The `Configuration` error as JSON: where no page can be shown, or nothing is known of the configuration. */
export function configurationJson(): InternalResponse {
  return json({ message: configurationMessage }, 500)
}

/** What an error answer may use of a configuration that failed: see `Resolution`. */
export type KnownConfiguration = Pick<Extract<Resolution, { ok: false }>, "basePath" | "pages" | "publicOrigin">

/** What the configuration error page reads of a request. */
type RequestLike = { url: URL; headers: HeaderReader }

/** The `Configuration` error for a request to `action`: the error page for a page, else JSON. */
export function configurationResponse(known: KnownConfiguration, action: Action | undefined, method: string, request: RequestLike): InternalResponse {
  if (method === "GET" && action && pageActions.has(action)) {
    return configurationErrorPage(request, known.basePath, known.pages, known.publicOrigin)
  }
  return configurationJson()
}

/**
 * The answer to a page request when the configuration does not resolve, or refuses the request's
 * host: a redirect to `pages.error` with `error=Configuration`, or the built-in page (500) in the
 * visitor's language. The built-in page is also shown when the request comes from `pages.error`
 * itself (its `callbackUrl` is that page): the app's error page cannot work with a broken
 * configuration either, and sending the browser back there would loop.
 *
 * `origin` is the app's public origin when it is known (`AUTH_URL`). Otherwise nothing here can
 * tell whether the request's host is the app's, so every URL is left relative to whatever the
 * browser asked for: a forged `Host` header is never written into a `Location` or a link.
 */
function configurationErrorPage(
  request: RequestLike,
  basePath: string,
  pages: Readonly<Partial<PagesOptions>>,
  origin: string | undefined,
): InternalResponse {
  const { url } = request
  const base = origin ?? url.origin
  /** `target` as the answer writes it: absolute on the known origin, else as configured. */
  const written = (configured: string, target: URL) => (origin || !configured.startsWith("/") ? target.href : `${target.pathname}${target.search}`)
  if (pages.error) {
    const target = new URL(pages.error, base)
    if (!pageLoops("error", target, base, basePath) && !isPage(url.searchParams.get("callbackUrl"), target)) {
      target.searchParams.set("error", "Configuration")
      return { redirect: written(pages.error, target) }
    }
  }
  const signInUrl = pages.signIn ? written(pages.signIn, new URL(pages.signIn, base)) : `${origin ?? ""}${basePath}/signin`
  return errorPage({ error: "Configuration", signInUrl, theme: defaultTheme }, translatorForRequest(request))
}

/** Whether `candidate` (resolved against `page`'s origin) is `page`, whatever its query. */
function isPage(candidate: string | null, page: URL): boolean {
  if (!candidate) return false
  try {
    const url = new URL(candidate, page.origin)
    return url.origin === page.origin && url.pathname.replace(/\/+$/, "") === page.pathname.replace(/\/+$/, "")
  } catch {
    return false
  }
}
