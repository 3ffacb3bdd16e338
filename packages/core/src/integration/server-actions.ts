/**
 * Signing in and out from the app's own server code (a form action, a route handler), for every
 * framework integration: each posts to the endpoint that does the job, with the browser's headers
 * and cookies, and hands back where to send the browser and the cookies to set. The integration
 * writes those in its framework's way (`res.cookie`, `cookies.set`, `c.header`).
 *
 * Policy:
 * - No CSRF token is asked for (the app's form has none), but the core's same-origin check runs on
 *   the browser's forwarded `Origin` and `Sec-Fetch-Site`, exactly as on a post to the endpoint
 *   itself: a call made while handling another site's form post is refused. A login CSRF (the
 *   attacker's credentials posted from the attacker's page) therefore fails.
 * - Errors are the caller's: a rejected credentials or password sign-in throws `CredentialsSignin`
 *   (with its `code`), a refused request (another site's post) a `BadRequest`, anything else an
 *   `AuthError`; the app shows its own message.
 * - The browser comes back to `redirectTo`, else to the page it was on (a same-origin `Referer`),
 *   else to `/`; the core's `redirect` callback has the last word, as for every callback URL.
 *
 * @module
 */
import { resolveConfig } from "../config/resolve.js"
import { AuthError, BadRequest } from "../errors.js"
import type { ResponseCookie } from "../http/cookies.js"
import type { InternalResponse } from "../http/response.js"
import { Auth } from "../index.js"
import { raw, skipCSRFCheck } from "../symbols.js"
import type { AuthConfig, Session } from "../types.js"
import { endpointsUrl, forwardedHeaders, withPeerOf } from "./core-request.js"
import { appOrigin, type RequestLike } from "./origin.js"

/**
 * Options of a sign-in or sign-out from the server: `redirectTo`, `redirect` (whether the
 * integration redirects, `true` unless the boolean `false`; the core itself never does), and for a
 * sign-in, the form's fields (`email`, `username`, `password`, …). A `FormData` is read the same
 * way, but a `redirect` field in it (text) never stops the redirect.
 */
export interface ServerSignInOptions {
  redirectTo?: string
  redirect?: boolean
  [field: string]: unknown
}

/** Parameters for the provider's authorization request (`prompt`, `login_hint`, …). */
export type AuthorizationParams = string | Record<string, string> | URLSearchParams | string[][]

/** What a sign-in or sign-out from the server decided. */
export interface ServerRedirect {
  /** Where to send the browser: the provider, the verify-request page, the callback URL. */
  readonly url: string
  /** Whether the caller asked to be redirected (`redirect`, `true` unless `false`). */
  readonly redirect: boolean
  /** The cookies to set on the response (the session, OAuth checks, cleared cookies). */
  readonly cookies: readonly ResponseCookie[]
}

/** What an update of the session from the server gives back. */
export interface ServerSessionUpdate {
  readonly session: Session | null
  readonly cookies: readonly ResponseCookie[]
}

interface ReadOptions {
  redirectTo: string | undefined
  redirect: boolean
  fields: Record<string, string>
}

/** Reads `options` (an object or a form): `redirectTo`, `redirect`, and the text fields. */
function readOptions(options: FormData | ServerSignInOptions | undefined): ReadOptions {
  const entries: [string, unknown][] = options instanceof FormData ? [...options.entries()] : Object.entries(options ?? {})
  const fields: Record<string, string> = {}
  let redirectTo: string | undefined
  let redirect = true
  for (const [key, value] of entries) {
    if (key === "redirectTo") redirectTo = typeof value === "string" && value ? value : undefined
    // Only the app's own `redirect: false` counts: a form's field is text a visitor chose, and a
    // route that passes the posted form on would otherwise answer nothing (as Auth.js, where the
    // text "false" is truthy).
    else if (key === "redirect") redirect = value !== false
    // Frameworks' own fields of a form action (React's `$ACTION_…`) and anything that is not text
    // (files) stay out.
    else if (typeof value === "string" && !key.startsWith("$ACTION")) fields[key] = value
  }
  return { redirectTo, redirect, fields }
}

const actionConfigs = new WeakMap<AuthConfig, AuthConfig & { raw: typeof raw; skipCSRFCheck: typeof skipCSRFCheck }>()

/** `config` with `raw` and `skipCSRFCheck`, made once per object so that the core resolves it once. */
function actionConfig(config: AuthConfig): AuthConfig & { raw: typeof raw; skipCSRFCheck: typeof skipCSRFCheck } {
  let result = actionConfigs.get(config)
  if (!result) {
    result = { ...config, raw, skipCSRFCheck }
    actionConfigs.set(config, result)
  }
  return result
}

/** Posts `form` (or `json`) to `<basePath>/<path>` with the browser's headers; throws what the core throws. */
function post(config: AuthConfig, request: RequestLike, path: string, body: { form?: Record<string, string>; json?: unknown }): Promise<InternalResponse> {
  const headers = forwardedHeaders(request)
  headers.set("content-type", body.form ? "application/x-www-form-urlencoded" : "application/json")
  const payload = body.form ? new URLSearchParams(body.form).toString() : JSON.stringify(body.json)
  return Auth(withPeerOf(request, new Request(`${endpointsUrl(config, request)}/${path}`, { method: "POST", headers, body: payload })), actionConfig(config))
}

/** The redirect of `response`; a refusal (a `4xx` the raw core answers rather than throws) is thrown. */
function redirectOf(response: InternalResponse, what: string): string {
  if (response.redirect !== undefined) return response.redirect
  const body = response.body as { message?: unknown } | undefined
  const detail = typeof body?.message === "string" ? `: ${body.message}` : ""
  const status = response.status ?? 200
  // The raw core answers only its own `BadRequest`s with a 4xx, so the status is one of theirs.
  if (status >= 400 && status < 500) throw new BadRequest(`${what} was refused${detail}`, status as BadRequest["status"])
  throw new AuthError(`${what} failed: the endpoint answered ${status} without a redirect.`)
}

/** The page the browser is on, when the request says so and it is on the app's origin. */
export function sameOriginReferer(request: RequestLike, origin: string): string | undefined {
  const referer = request.headers.get("referer")
  if (referer === null || !URL.canParse(referer)) return undefined
  return new URL(referer).origin === origin ? referer : undefined
}

/**
 * Signs in with `provider` from the server, as a post to its endpoint would: an OAuth or OIDC
 * provider answers with its authorization URL (and the cookies of the checks), an email provider
 * sends its link and answers with the verify-request page, a credentials or password provider
 * checks `options`' fields and answers with the callback URL and the session cookie. Without a
 * provider, or with one that is not configured, the URL is the sign-in page listing them all.
 *
 * @param config The very object the integration passes to `Auth()`.
 * @param request The browser's request being handled: its headers, cookies and URL.
 * @throws `CredentialsSignin` when the credentials are rejected; `BadRequest` when the request is
 *   refused (another site's post); `AuthError` for any other failure.
 */
export async function signInFromServer(
  config: AuthConfig,
  request: RequestLike,
  provider?: string,
  options?: FormData | ServerSignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<ServerRedirect> {
  const { redirectTo, redirect, fields } = readOptions(options)
  const endpoints = endpointsUrl(config, request)
  const callbackUrl = redirectTo ?? sameOriginReferer(request, new URL(endpoints).origin) ?? "/"
  const resolution = resolveConfig(config)
  const found = provider && resolution.ok ? resolution.config.providers.get(provider) : undefined
  if (!found) {
    const page = new URL(`${endpoints}/signin`)
    page.searchParams.set("callbackUrl", callbackUrl)
    return { url: page.href, redirect, cookies: [] }
  }
  let response: InternalResponse
  const id = encodeURIComponent(found.id)
  if (found.type === "oauth" || found.type === "oidc") {
    // The sign-in endpoint forwards its fields to the authorization request: send only the
    // callback URL and the parameters meant for the provider.
    const params = Object.fromEntries(new URLSearchParams(authorizationParams ?? ""))
    response = await post(config, request, `signin/${id}`, { form: { ...params, callbackUrl } })
  } else {
    const path = found.type === "credentials" || found.type === "password" ? "callback" : "signin"
    response = await post(config, request, `${path}/${id}`, { form: { ...fields, callbackUrl } })
  }
  return { url: redirectOf(response, `Signing in with "${found.id}"`), redirect, cookies: response.cookies ?? [] }
}

/**
 * Signs out from the server, as a post to the sign-out endpoint would: a database session is
 * deleted, and the cookies returned clear the session cookie.
 *
 * @throws `BadRequest` when the request is refused (another site's post); `AuthError` otherwise.
 */
export async function signOutFromServer(
  config: AuthConfig,
  request: RequestLike,
  options?: FormData | Pick<ServerSignInOptions, "redirect" | "redirectTo">,
): Promise<ServerRedirect> {
  const { redirectTo, redirect } = readOptions(options)
  const callbackUrl = redirectTo ?? sameOriginReferer(request, new URL(endpointsUrl(config, request)).origin) ?? "/"
  const response = await post(config, request, "signout", { form: { callbackUrl } })
  return { url: redirectOf(response, "Signing out"), redirect, cookies: response.cookies ?? [] }
}

/**
 * Updates the session from the server, as `POST <basePath>/session` with `{ data }` does: the
 * `jwt` callback (with `trigger: "update"`) or the database session's update runs.
 */
export async function updateSessionFromServer(config: AuthConfig, request: RequestLike, data: unknown): Promise<ServerSessionUpdate> {
  const response = await post(config, request, "session", { json: { data } })
  const body = response.body
  const session = (response.status ?? 200) === 200 && body && typeof body === "object" ? (body as Session) : null
  return { session, cookies: response.cookies ?? [] }
}

/**
 * The sign-in page for a visitor a guard turned away, with `callbackUrl` set to the path and query
 * of `returnTo` (the page asked for: a path such as `req.originalUrl`, or a URL; leading slashes
 * collapsed, so that `//evil.example` cannot become a protocol-relative URL). The core's own endpoint shows the built-in page or sends the browser on
 * to `pages.signIn`, so that decision stays in one place. Absolute on the app's origin when the core
 * accepts the request's host; a path otherwise, so that a forged `Host` is never written into it.
 */
export function signInPageUrl(config: AuthConfig, request: RequestLike, returnTo: string): string {
  const resolution = resolveConfig(config)
  const basePath = resolution.ok ? resolution.config.basePath : resolution.basePath
  // Only the path and query travel: an absolute URL gives its own, and a path's leading slashes
  // are collapsed before it is parsed, or `//evil.example/x` would be read as a host.
  const back = URL.canParse(returnTo) ? new URL(returnTo) : new URL(`/${returnTo.replace(/^[/\\]+/, "")}`, "http://localhost")
  const path = `${basePath}/signin?${new URLSearchParams({ callbackUrl: `/${back.pathname.replace(/^[/\\]+/, "")}${back.search}` })}`
  const origin = appOrigin(config, request)
  return origin === null ? path : `${origin}${path}`
}

/**
 * Whether a guard should answer `request` with a `401` JSON body rather than a redirect: a client
 * that asks for JSON and not for a page (`fetch` with `Accept: application/json`), or a script's
 * request (`X-Requested-With`), which cannot follow a redirect to a sign-in page usefully.
 */
export function wantsJson(headers: Headers): boolean {
  const accept = headers.get("accept") ?? ""
  if (/\btext\/html\b/i.test(accept)) return false
  return /\bapplication\/(?:[\w.+-]+\+)?json\b/i.test(accept) || headers.has("x-requested-with")
}

/**
 * The answer to a sign-in or sign-out from the server that the core refused as a client's mistake,
 * for an integration whose framework sends a thrown `Response` (React Router's actions, TanStack
 * Start's server functions): a refused request (`BadRequest`: another site's post, `403`; a bad
 * field, `400`) or a host the core does not trust (`400`), as JSON `{ error, message }`, private.
 * `undefined` for anything else (a `CredentialsSignin` is the app's to show; an outage has its
 * `503`). Read by `type`, not `instanceof`: a bundler may hold more than one copy of the core.
 */
export function refusedActionAnswer(caught: unknown): Response | undefined {
  const { type, status, message, error } = (caught ?? {}) as { type?: unknown; status?: unknown; message?: unknown; error?: unknown }
  const answer = (code: number, name: string, text: string) =>
    new Response(JSON.stringify({ error: name, message: text }), { status: code, headers: { "content-type": "application/json", "cache-control": "private, no-store" } })
  if (type === "BadRequest" && typeof status === "number") return answer(status, typeof error === "string" ? error : "BadRequest", typeof message === "string" ? message : "Bad request")
  if (type === "UntrustedHost") return answer(400, "UntrustedHost", "The request's host is not this app's.")
  return undefined
}
