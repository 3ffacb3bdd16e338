/**
 * Signing in and out from the app's own endpoints and pages (`src/pages/login.ts`, a page's
 * frontmatter handling its form's `POST`), on the core's server-side helpers
 * (`signInFromServer`, `signOutFromServer`), which post to the endpoint that does the job with the
 * browser's headers and cookies.
 *
 * Policy:
 * 1. No CSRF token is asked for (the app's form has none), but the core's same-origin check reads
 *    the browser's own `Origin` and `Sec-Fetch-Site`, passed on as they came: another site's post
 *    throws `BadRequest` (`403`), so a login CSRF fails even with Astro's `checkOrigin` turned off.
 * 2. Errors are thrown to the route as the core's (`CredentialsSignin` for refused credentials,
 *    `BadRequest` for a refused request, `AuthError` otherwise; `instanceof` and `type` work), so
 *    that the page shows its own message ("Wrong email or password") and status.
 * 3. The route gets a `303` to where the browser goes next (the provider, the verify-request page,
 *    the callback URL), carrying the cookies and `Cache-Control: private, no-store`: after a form's
 *    post the browser follows it with a `GET`. With `redirect: false` in the route's code, the
 *    route gets the URL instead, and `sessionMiddleware` writes the cookies on the response the
 *    route makes; a `redirect` field the browser posts changes nothing. Without such a middleware,
 *    a page's `Astro.response` gets them at once, and an endpoint's `redirect: false` throws a
 *    `TypeError` before anything is done (its cookies would be lost, and a sign-out undone).
 * 4. The cookies are the request's last word (`cookies.ts`, policy 3): the session middleware no
 *    longer writes its read's renewed cookie, and after a sign-out, `Astro.locals.session` and a
 *    later `getSession` are `null`. After a sign-in, they still describe the request as it came.
 * 5. The browser comes back to `redirectTo`, else to the page it posted from (a same-origin
 *    `Referer`), else to `/`; the core's `redirect` callback has the last word, so another site's
 *    address is never followed.
 *
 * @module
 */
import { signInFromServer, signOutFromServer, withCookies, type AuthorizationParams, type ServerRedirect, type ServerSignInOptions } from "@sesame/core/integration"
import { configFor, stateOf, type Prepared } from "./config.js"
import { decide, writeOnPageResponse } from "./cookies.js"
import { browserRequest } from "./peer.js"
import { localsOf } from "./session.js"
import type { AstroContext } from "./types.js"

/**
 * Options of {@link signIn}: `redirectTo`, `redirect`, and the form's fields (`email`, `password`…).
 *
 * @example
 * ```ts
 * const options: SignInOptions = { redirectTo: "/dashboard", email, password }
 * return signIn(context, "credentials", options)
 * ```
 */
export type SignInOptions = ServerSignInOptions
/**
 * Options of {@link signOut}: `redirectTo`, and `redirect` (`false` for the URL instead of a redirect).
 *
 * @example
 * ```ts
 * const options: SignOutOptions = { redirectTo: "/" }
 * return signOut(context, options)
 * ```
 */
export type SignOutOptions = Pick<ServerSignInOptions, "redirect" | "redirectTo">
export type { AuthorizationParams }

/**
 * Refuses `redirect: false` where its cookies would be lost: no middleware of the configuration
 * writes them after the route, and the route is an endpoint (no `Astro.response`). Checked before
 * anything is done.
 */
function checkCookiesHaveAWay(context: AstroContext, prepared: Prepared, options: unknown, owner: string): void {
  const asked = options instanceof FormData ? false : (options as { redirect?: unknown } | undefined)?.redirect === false
  if (!asked || stateOf(context).kept.has(prepared)) return
  const page = (context as { response?: { headers?: unknown } }).response
  if (page?.headers instanceof Headers) return
  throw new TypeError(`${owner}(context, { redirect: false }) in an endpoint needs sessionMiddleware(authConfig) in src/middleware.ts to write its cookies; without it, return the redirect instead.`)
}

/**
 * Records the cookies as the request's last word, then answers with the redirect carrying them, or
 * the URL (policy 3 and 4). Only the boolean `false` of the route's own code asks for the URL.
 */
function finish(context: AstroContext, prepared: Prepared, { url, redirect, cookies }: ServerRedirect, signsOut: boolean): Response | string {
  decide(context, cookies, signsOut)
  if (signsOut) localsOf(context).session = null
  if (!redirect) {
    // No middleware writes them after the route: on the page's response, then (policy 3).
    if (!stateOf(context).kept.has(prepared)) writeOnPageResponse(context, stateOf(context).decision?.cookies ?? cookies)
    return url
  }
  return withCookies(new Response(null, { status: 303, headers: { location: url, "cache-control": "private, no-store" } }), cookies)
}

/**
 * Signs in with `provider` from an endpoint or a page, as a post to its endpoint would: a
 * credentials provider checks the form's fields and sets the session cookie; an OAuth or OIDC
 * provider answers with its authorization URL; an email provider sends its link. Without a provider
 * (or with one that is not configured), the browser goes to the sign-in page.
 *
 * The configuration is the one `sessionMiddleware` (or `authorize`) used for this request.
 *
 * @param context - the endpoint's `APIContext`, or `Astro` in a page.
 * @param options - a `FormData` (`await context.request.formData()`) or an object: `redirectTo`,
 *   `redirect` (`false` to get the URL instead of a redirect), and the fields the provider reads.
 * @param authorizationParams - for an OAuth or OIDC provider: extra parameters of its authorization
 *   request (`prompt`, `login_hint`…).
 * @returns a `303` redirect carrying the cookies; with `redirect: false`, the URL (the middleware
 *   writes the cookies on the route's response).
 * @throws `CredentialsSignin` (from `@sesame/core/errors`) when the credentials are refused;
 *   `BadRequest` (`403`) when the request is another site's post; `AuthError` for any other
 *   failure; a `TypeError` when no `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * // src/pages/login.ts
 * import type { APIContext } from "astro"
 * import { CredentialsSignin } from "@sesame/core/errors"
 * import { signIn } from "@sesame/astro"
 *
 * export const prerender = false
 * export async function POST(context: APIContext) {
 *   const form = await context.request.formData()
 *   try {
 *     return await signIn(context, "credentials", { redirectTo: "/dashboard", email: form.get("email"), password: form.get("password") })
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return context.redirect("/signin?error=credentials", 303)
 *     throw error
 *   }
 * }
 * ```
 */
export async function signIn(context: AstroContext, provider: string | undefined, options: SignInOptions & { redirect: false }, authorizationParams?: AuthorizationParams): Promise<string>
export async function signIn(context: AstroContext, provider?: string, options?: SignInOptions & { redirect?: true }, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(context: AstroContext, provider?: string, options?: FormData, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(context: AstroContext, provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string>
export async function signIn(context: AstroContext, provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string> {
  const prepared = configFor(context, undefined, "signIn")
  checkCookiesHaveAWay(context, prepared, options, "signIn")
  return finish(context, prepared, await signInFromServer(prepared.config, browserRequest(context), provider, options, authorizationParams), false)
}

/**
 * Signs out from an endpoint or a page, as a post to the sign-out endpoint would: a database
 * session is deleted, and the session cookie is cleared.
 *
 * @returns a `303` redirect to `redirectTo` (else the page the form was on, else `/`) carrying the
 *   cleared cookies; with `redirect: false`, the URL. Later in the request, `Astro.locals.session`
 *   and `getSession(context)` are `null`.
 * @throws `BadRequest` (`403`) when the request is another site's post; `AuthError` otherwise; a
 *   `TypeError` when no `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * // src/pages/logout.ts
 * import type { APIContext } from "astro"
 * import { signOut } from "@sesame/astro"
 *
 * export const prerender = false
 * export const POST = (context: APIContext) => signOut(context, { redirectTo: "/" })
 * ```
 */
export async function signOut(context: AstroContext, options: SignOutOptions & { redirect: false }): Promise<string>
export async function signOut(context: AstroContext, options?: SignOutOptions & { redirect?: true }): Promise<Response>
export async function signOut(context: AstroContext, options?: SignOutOptions): Promise<Response | string>
export async function signOut(context: AstroContext, options?: SignOutOptions): Promise<Response | string> {
  const prepared = configFor(context, undefined, "signOut")
  checkCookiesHaveAWay(context, prepared, options, "signOut")
  return finish(context, prepared, await signOutFromServer(prepared.config, browserRequest(context), options), true)
}
