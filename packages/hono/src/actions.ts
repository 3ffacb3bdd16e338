/**
 * Signing in and out from the app's own routes (`app.post("/login", …)`), on the core's
 * server-side helpers (`signInFromServer`, `signOutFromServer`), which post to the endpoint that
 * does the job with the browser's headers and cookies.
 *
 * Policy:
 * 1. No CSRF token is asked for (the app's form has none), but the core's same-origin check reads
 *    the browser's own `Origin` and `Sec-Fetch-Site`, passed on as they came: a route handling
 *    another site's post throws `BadRequest` (`403`), so a login CSRF fails.
 * 2. Errors are the route's (`errors.ts`): `CredentialsSignin` for refused credentials, `BadRequest`
 *    for a refused request, `AuthError` otherwise.
 * 3. The cookies are written with `c.header` (`cookies.ts`), then the route gets a `303` to where
 *    the browser goes next (the provider, the verify-request page, the callback URL): after a form's
 *    post, the browser follows it with a `GET`. With `redirect: false` in the route's code, the
 *    route gets the URL and makes its own response with `c` (which carries the cookies); a
 *    `redirect` field the browser posts changes nothing.
 * 4. The cookies are the request's last word (`decide`): the session middleware writes them on a
 *    response that dropped them and no longer writes its read's renewed cookie, and after a
 *    sign-out, `getSession(c)` is `null`. A session read later in the request never undoes it.
 * 5. The browser comes back to `redirectTo`, else to the page it posted from (a same-origin
 *    `Referer`), else to `/`; the core's `redirect` callback has the last word, so another site's
 *    address is never followed.
 *
 * @module
 */
import { signInFromServer, signOutFromServer, type AuthorizationParams, type ServerRedirect, type ServerSignInOptions } from "@sesame/core/integration"
import { peerAddress } from "./peer.js"
import type { Context } from "hono"
import { currentConfig } from "./config.js"
import { decide } from "./cookies.js"
import { answerable } from "./errors.js"

/** Options of {@link signIn}: `redirectTo`, `redirect`, and the form's fields (`email`, `password`…). */
export type SignInOptions = ServerSignInOptions
/** Options of {@link signOut}. */
export type SignOutOptions = Pick<ServerSignInOptions, "redirect" | "redirectTo">
export type { AuthorizationParams }

/**
 * Writes the cookies as the request's last word, then answers with the redirect, or the URL (policy
 * 3 and 4). Whether to redirect is the core's reading of the options: only the boolean `false` of
 * the route's own code asks for the URL, never a form's `redirect` field (text the browser sends),
 * which would turn the route's answer into a string Hono cannot send.
 */
function finish(c: Context, { url, redirect, cookies }: ServerRedirect, signsOut: boolean): Response | string {
  decide(c, cookies, signsOut)
  return redirect ? c.redirect(url, 303) : url
}

/** The browser's request as the core's helpers read it. */
function browserRequest(c: Context) {
  // With the socket's address: a sign-in from a route counts in the browser's own rate limit.
  return { headers: c.req.raw.headers, url: c.req.url, peer: peerAddress(c) }
}

/**
 * Signs in with `provider` from a route, as a post to its endpoint would: a credentials provider
 * checks the form's fields and sets the session cookie; an OAuth or OIDC provider answers with its
 * authorization URL; an email provider sends its link. Without a provider (or with one that is not
 * configured), the browser goes to the sign-in page.
 *
 * The configuration is the one `sessionMiddleware` (or a guard, or the handler) used for this
 * request.
 *
 * @param options - the form (`c.req.valid("form")` after Hono's `validator("form", …)`, which
 *   answers `400` to a body it cannot read where `c.req.formData()` throws), a `FormData`, or an
 *   object: `redirectTo`, `redirect` (`false` to get the URL instead of a redirect), and the fields
 *   the provider reads.
 * @param authorizationParams - for an OAuth or OIDC provider: extra parameters of its authorization
 *   request (`prompt`, `login_hint`…).
 * @returns a `303` redirect made with `c`, carrying the cookies; with `redirect: false`, the URL.
 *   Later in the request, `getSession(c)` is still the session the request came with.
 * @throws `CredentialsSignin` when the credentials are refused; `BadRequest` (`403`) when the
 *   request is another site's post; `AuthError` for any other failure. Uncaught, the first two are
 *   answered `401` and `403` by Hono's default error handler.
 *
 * @example
 * ```ts
 * app.post("/login", validator("form", (form) => form), async (c) => {
 *   try {
 *     return await signIn(c, "credentials", c.req.valid("form"))
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return c.html(loginPage("Wrong email or password"), 401)
 *     throw error
 *   }
 * })
 * ```
 */
export async function signIn(c: Context, provider: string | undefined, options: SignInOptions & { redirect: false }, authorizationParams?: AuthorizationParams): Promise<string>
export async function signIn(c: Context, provider?: string, options?: SignInOptions & { redirect?: true }, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(c: Context, provider?: string, options?: FormData, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(c: Context, provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string>
export async function signIn(c: Context, provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string> {
  const { config } = currentConfig(c, "signIn")
  try {
    return finish(c, await signInFromServer(config, browserRequest(c), provider, options, authorizationParams), false)
  } catch (error) {
    throw answerable(error)
  }
}

/**
 * Signs out from a route, as a post to the sign-out endpoint would: a database session is deleted,
 * and the session cookie is cleared.
 *
 * @returns a `303` redirect to `redirectTo` (else the page the form was on, else `/`) made with `c`,
 *   carrying the cleared cookies; with `redirect: false`, the URL. Later in the request,
 *   `getSession(c)` is `null`.
 * @throws `BadRequest` (`403`) when the request is another site's post; `AuthError` otherwise.
 *
 * @example
 * ```ts
 * app.post("/logout", (c) => signOut(c, { redirectTo: "/" }))
 * ```
 */
export async function signOut(c: Context, options: SignOutOptions & { redirect: false }): Promise<string>
export async function signOut(c: Context, options?: SignOutOptions & { redirect?: true }): Promise<Response>
export async function signOut(c: Context, options?: SignOutOptions): Promise<Response | string>
export async function signOut(c: Context, options?: SignOutOptions): Promise<Response | string> {
  const { config } = currentConfig(c, "signOut")
  try {
    return finish(c, await signOutFromServer(config, browserRequest(c), options), true)
  } catch (error) {
    throw answerable(error)
  }
}
