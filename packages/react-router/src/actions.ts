/**
 * Signing in and out from the app's own actions (`app/routes/login.tsx` handling its `<Form>`'s
 * post), on the core's server-side helpers (`signInFromServer`, `signOutFromServer`), which post to
 * the endpoint that does the job with the browser's headers and cookies.
 *
 * Policy:
 * 1. No CSRF token is asked for (the app's form has none), but the core's same-origin check reads
 *    the browser's own `Origin` and `Sec-Fetch-Site`, passed on as they came: another site's post
 *    is refused with `403` (policy 2), so a login CSRF fails whatever React Router's own origin
 *    check (`allowedActionOrigins`) lets through.
 * 2. Errors are thrown to the action as the core's (`CredentialsSignin` for refused credentials,
 *    `AuthError` otherwise; `instanceof` and `type` work), so that the route shows its own message
 *    ("Wrong email or password") with `data(…, { status })`. Except what is never the route's to
 *    answer, thrown as the `Response` that answers it, which React Router sends (a page's
 *    `ErrorBoundary` gets its status), never as a `500`: a refused request (the core's
 *    `BadRequest`: another site's post, a malformed one) with its status (`403`, `400`) and
 *    `{ error, message }`; a host the core does not trust, `400`; a storage outage, the core's
 *    `503` with `Retry-After`.
 * 3. The action gets a `303` to where the browser goes next (the provider, the verify-request page,
 *    the callback URL), carrying the cookies and `Cache-Control: private, no-store`; React Router
 *    follows it, after a `<Form>`'s fetch too, as a document into Sesame's pages (document.ts). With `redirect: false` in the action's code, the
 *    action gets the URL instead, and `sessionMiddleware` writes the cookies on the response; a
 *    `redirect` field the browser posts changes nothing. Without the middleware, both throw a
 *    `TypeError` before anything is done: the middleware is where they find the configuration,
 *    and what writes the cookies of `redirect: false` (lost otherwise, and a sign-out undone).
 * 4. The cookies are the request's last word (`cookies.ts`, policy 2): the middleware no longer
 *    writes its read's renewed cookie, and after a sign-out, a later `getSession` (the loaders
 *    revalidating after the action) is `null`. After a sign-in, it still describes the request as
 *    it came.
 * 5. The browser comes back to `redirectTo`, else to the page it posted from (a same-origin
 *    `Referer`), else to `/`; the core's `redirect` callback has the last word, so another site's
 *    address is never followed.
 *
 * @module
 */
import { isStorageUnavailable, refusedActionAnswer, signInFromServer, signOutFromServer, withCookies, type AuthorizationParams, type ServerRedirect, type ServerSignInOptions } from "@sesame/core/integration"
import { configFor, stateOf, type Prepared } from "./config.js"
import { decide } from "./cookies.js"
import { reloadingIntoSesame } from "./document.js"
import type { RouteArgs } from "./types.js"
import { unavailableResponse } from "./unavailable.js"

/**
 * Options of {@link signIn}: `redirectTo`, `redirect`, and the form's fields (`email`, `password`…).
 *
 * @example
 * ```ts
 * const options: SignInOptions = { redirectTo: "/dashboard", email, password }
 * return signIn(args, "credentials", options)
 * ```
 */
export type SignInOptions = ServerSignInOptions
/**
 * Options of {@link signOut}: `redirectTo`, and `redirect` (`false` for the URL instead of a redirect).
 *
 * @example
 * ```ts
 * const options: SignOutOptions = { redirectTo: "/" }
 * return signOut(args, options)
 * ```
 */
export type SignOutOptions = Pick<ServerSignInOptions, "redirect" | "redirectTo">
export type { AuthorizationParams }

/** Refuses `redirect: false` where no middleware of the configuration writes its cookies after the action (policy 3). Checked before anything is done. */
function checkCookiesHaveAWay(args: RouteArgs, prepared: Prepared, options: unknown, owner: string): void {
  const asked = options instanceof FormData ? false : (options as { redirect?: unknown } | undefined)?.redirect === false
  if (!asked || stateOf(args).kept.has(prepared)) return
  throw new TypeError(`${owner}(args, { redirect: false }) needs sessionMiddleware(authConfig) in app/root.tsx to write its cookies; without it, return the redirect instead.`)
}

/** The browser's request as the core's helpers read it. React Router gives no socket address: a proxy's header says it (`trustedProxy`). */
function browserRequest(args: RouteArgs): { headers: Headers; url: string } {
  return { headers: args.request.headers, url: args.request.url }
}

/**
 * Runs a core helper: what is not the route's to answer becomes the thrown `Response` that answers
 * it (policy 2): a refused request (`BadRequest`) with its status; a host the core does not trust
 * (`UntrustedHost`: a forged `Host` where no `AUTH_URL` or `trustHost` says the app's) `400`; a
 * storage outage (`StorageUnavailable`) the core's `503` with `Retry-After`, nobody signed in or out.
 */
async function answeredAsResponse<T>(args: RouteArgs, prepared: Prepared, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (caught) {
    if (isStorageUnavailable(caught)) throw unavailableResponse(args.request, prepared, caught)
    throw refusedActionAnswer(caught) ?? caught
  }
}

/**
 * Records the cookies as the request's last word, then answers with the redirect carrying them, or
 * the URL (policy 3 and 4). Only the boolean `false` of the action's own code asks for the URL.
 */
function finish(args: RouteArgs, prepared: Prepared, { url, redirect, cookies }: ServerRedirect, signsOut: boolean): Response | string {
  decide(args, cookies, signsOut)
  if (!redirect) return url
  return reloadingIntoSesame(withCookies(new Response(null, { status: 303, headers: { location: url, "cache-control": "private, no-store" } }), cookies), prepared)
}

/**
 * Signs in with `provider` from an action, as a post to its endpoint would: a credentials provider
 * checks the form's fields and sets the session cookie; an OAuth or OIDC provider answers with its
 * authorization URL; an email provider sends its link. Without a provider (or with one that is not
 * configured), the browser goes to the sign-in page.
 *
 * The configuration is the one `sessionMiddleware` (or `authorize`) used for this request.
 *
 * @param args - the action's arguments.
 * @param options - a `FormData` (`await args.request.formData()`) or an object: `redirectTo`,
 *   `redirect` (`false` to get the URL instead of a redirect), and the fields the provider reads.
 * @param authorizationParams - for an OAuth or OIDC provider: extra parameters of its authorization
 *   request (`prompt`, `login_hint`…).
 * @returns a `303` redirect carrying the cookies, for the action to return; with `redirect: false`,
 *   the URL (the middleware writes the cookies on the action's response).
 * @throws `CredentialsSignin` (from `@sesame/core/errors`) when the credentials are refused; a
 *   `403` `Response` when the request is another site's post; `AuthError` for any other failure; a
 *   `TypeError` when no `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * // app/routes/login.tsx
 * import { data } from "react-router"
 * import { CredentialsSignin } from "@sesame/core/errors"
 * import { signIn } from "@sesame/react-router"
 * import type { Route } from "./+types/login"
 *
 * export async function action(args: Route.ActionArgs) {
 *   const form = await args.request.formData()
 *   try {
 *     return await signIn(args, "credentials", { redirectTo: "/dashboard", email: form.get("email"), password: form.get("password") })
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return data({ error: "Wrong email or password." }, { status: 401 })
 *     throw error
 *   }
 * }
 * ```
 */
export async function signIn(args: RouteArgs, provider: string | undefined, options: SignInOptions & { redirect: false }, authorizationParams?: AuthorizationParams): Promise<string>
export async function signIn(args: RouteArgs, provider?: string, options?: SignInOptions & { redirect?: true }, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(args: RouteArgs, provider?: string, options?: FormData, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(args: RouteArgs, provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string>
export async function signIn(args: RouteArgs, provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string> {
  const prepared = configFor(args, undefined, "signIn")
  checkCookiesHaveAWay(args, prepared, options, "signIn")
  return finish(args, prepared, await answeredAsResponse(args, prepared, () => signInFromServer(prepared.config, browserRequest(args), provider, options, authorizationParams)), false)
}

/**
 * Signs out from an action, as a post to the sign-out endpoint would: a database session is
 * deleted, and the session cookie is cleared.
 *
 * @returns a `303` redirect to `redirectTo` (else the page the form was on, else `/`) carrying the
 *   cleared cookies; with `redirect: false`, the URL. Later in the request, `getSession(args)` is
 *   `null`.
 * @throws a `403` `Response` when the request is another site's post; `AuthError` otherwise; a
 *   `TypeError` when no `sessionMiddleware` ran for the request.
 *
 * @example
 * ```ts
 * // app/routes/logout.ts
 * import { signOut } from "@sesame/react-router"
 * import type { Route } from "./+types/logout"
 *
 * export const action = (args: Route.ActionArgs) => signOut(args, { redirectTo: "/" })
 * ```
 */
export async function signOut(args: RouteArgs, options: SignOutOptions & { redirect: false }): Promise<string>
export async function signOut(args: RouteArgs, options?: SignOutOptions & { redirect?: true }): Promise<Response>
export async function signOut(args: RouteArgs, options?: SignOutOptions): Promise<Response | string>
export async function signOut(args: RouteArgs, options?: SignOutOptions): Promise<Response | string> {
  const prepared = configFor(args, undefined, "signOut")
  checkCookiesHaveAWay(args, prepared, options, "signOut")
  return finish(args, prepared, await answeredAsResponse(args, prepared, () => signOutFromServer(prepared.config, browserRequest(args), options)), true)
}
