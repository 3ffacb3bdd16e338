/**
 * Signing in and out from the app's own server routes (`server/routes/signin.post.ts` handling a
 * form's post), on the core's server-side helpers (`signInFromServer`, `signOutFromServer`), which
 * post to the endpoint that does the job with the browser's headers and cookies.
 *
 * Policy:
 * 1. No CSRF token is asked for (the app's form has none), but the core's same-origin check reads
 *    the browser's own `Origin` and `Sec-Fetch-Site`, passed on as they came: another site's post
 *    is refused (policy 2), so a login CSRF fails.
 * 2. Refused credentials throw the core's `CredentialsSignin` (`instanceof` and `type` work), for
 *    the route to answer with its own message. What is never the route's to answer is thrown as
 *    h3's error with its status, which Nitro answers (JSON for a script, the error page for a
 *    browser), never a `500`: a refused request (the core's `BadRequest`: another site's post, a
 *    malformed one) with its status; a host the core does not trust, `400`; a storage outage,
 *    `503` with `Retry-After`, nobody signed in or out. Any other `AuthError` is thrown on.
 * 3. The route gets a `303` to where the browser goes next (the provider, the verify-request page,
 *    the callback URL), carrying the cookies and `Cache-Control: private, no-store`. With
 *    `redirect: false` in the route's code, it gets the URL instead, and the cookies are on the
 *    event's response. A `redirect` field the browser posts changes nothing.
 * 4. The cookies are the request's last word (cookies.ts, policy 2): they replace those the
 *    session middleware wrote; after a sign-out, `event.context.session` and a later
 *    `getServerSession` are `null`.
 * 5. The browser comes back to `redirectTo`, else to the page it posted from (a same-origin
 *    `Referer`), else to `/`; the core's `redirect` callback has the last word.
 *
 * @module
 */
import { isStorageUnavailable, signInFromServer, signOutFromServer, withCookies, type AuthorizationParams, type ServerRedirect, type ServerSignInOptions } from "@sesame/core/integration"
import { createError, setResponseHeader } from "h3"
import { configFor, stateOf } from "./config.js"
import { dropCookies, writeCookies } from "./cookies.js"
import { requestLike } from "./request.js"
import { contextOf } from "./session.js"
import type { Event } from "./types.js"

/**
 * Options of {@link signIn}: `redirectTo`, `redirect`, and the form's fields (`email`, `password`…).
 *
 * @example
 * ```ts
 * const options: SignInOptions = { redirectTo: "/dashboard", email, password }
 * return signIn(event, "credentials", options)
 * ```
 */
export type SignInOptions = ServerSignInOptions
/**
 * Options of {@link signOut}: `redirectTo`, and `redirect` (`false` for the URL instead of a redirect).
 *
 * @example
 * ```ts
 * const options: SignOutOptions = { redirectTo: "/" }
 * return signOut(event, options)
 * ```
 */
export type SignOutOptions = Pick<ServerSignInOptions, "redirect" | "redirectTo">
export type { AuthorizationParams }

/** Runs a core helper: what is not the route's to answer becomes h3's error with its status (policy 2). */
async function answered<T>(event: Event, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (caught) {
    if (isStorageUnavailable(caught)) {
      setResponseHeader(event, "retry-after", caught.retryAfter)
      setResponseHeader(event, "cache-control", "no-store")
      throw createError({ statusCode: 503, statusMessage: "Service Unavailable", message: caught.message, data: { error: "StorageUnavailable", message: caught.message } })
    }
    // Read by `type`, not `instanceof`: a bundler may hold more than one copy of the core.
    const { type, status, message, error } = caught as { type?: unknown; status?: unknown; message?: unknown; error?: unknown }
    if (type === "BadRequest" && typeof status === "number") {
      const text = typeof message === "string" ? message : "Bad request"
      throw createError({ statusCode: status, statusMessage: status === 403 ? "Forbidden" : "Bad Request", message: text, data: { error: typeof error === "string" ? error : "BadRequest", message: text } })
    }
    if (type === "UntrustedHost") {
      const text = "The request's host is not this app's."
      throw createError({ statusCode: 400, statusMessage: "Bad Request", message: text, data: { error: "UntrustedHost", message: text } })
    }
    throw caught
  }
}

/** The route's answer with the cookies as the request's last word (policy 3 and 4). */
function finish(event: Event, { url, redirect, cookies }: ServerRedirect, signsOut: boolean): Response | string {
  if (signsOut) {
    stateOf(event).signedOut = true
    contextOf(event).session = null
  }
  if (!redirect) {
    writeCookies(event, cookies, true)
    return url
  }
  // h3 adds the returned Response's lines after those on the event: the earlier ones of these names go.
  dropCookies(event, new Set(cookies.map(({ name }) => name)))
  return withCookies(new Response(null, { status: 303, headers: { location: url, "cache-control": "private, no-store" } }), cookies)
}

/**
 * Signs in with `provider` from a server route, as a post to its endpoint would: a credentials
 * provider checks the form's fields and sets the session cookie; an OAuth or OIDC provider answers
 * with its authorization URL; an email provider sends its link. Without a provider (or with one
 * that is not configured), the browser goes to the sign-in page.
 *
 * @param options - a `FormData` (`await readFormData(event)`) or an object: `redirectTo`,
 *   `redirect` (`false` to get the URL instead of a redirect), and the fields the provider reads.
 * @returns a `303` `Response` carrying the cookies, for the route to return; with
 *   `redirect: false`, the URL (the cookies are on the event's response).
 * @throws `CredentialsSignin` (from `@sesame/core/errors`) when the credentials are refused; h3's
 *   error with status `403` for another site's post, `503` during a storage outage; a `TypeError`
 *   when no configuration is known for the request.
 *
 * @example
 * ```ts
 * // server/routes/signin.post.ts
 * import { CredentialsSignin } from "@sesame/core/errors"
 * import { signIn } from "@sesame/nuxt/server"
 *
 * export default defineEventHandler(async (event) => {
 *   const form = await readFormData(event)
 *   try {
 *     return await signIn(event, "credentials", { redirectTo: "/dashboard", email: form.get("email"), password: form.get("password") })
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return sendRedirect(event, "/signin?error=credentials", 303)
 *     throw error
 *   }
 * })
 * ```
 */
export async function signIn(event: Event, provider: string | undefined, options: SignInOptions & { redirect: false }, authorizationParams?: AuthorizationParams): Promise<string>
export async function signIn(event: Event, provider?: string, options?: SignInOptions & { redirect?: true }, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(event: Event, provider?: string, options?: FormData, authorizationParams?: AuthorizationParams): Promise<Response>
export async function signIn(event: Event, provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string>
export async function signIn(event: Event, provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<Response | string> {
  const prepared = configFor(event, undefined, "signIn")
  return finish(event, await answered(event, () => signInFromServer(prepared.config, requestLike(event), provider, options, authorizationParams)), false)
}

/**
 * Signs out from a server route, as a post to the sign-out endpoint would: a database session is
 * deleted, and the session cookie is cleared.
 *
 * @returns a `303` `Response` to `redirectTo` (else the page the form was on, else `/`) carrying
 *   the cleared cookies; with `redirect: false`, the URL. Later in the request,
 *   `event.context.session` and `getServerSession(event)` are `null`.
 * @throws h3's error with status `403` for another site's post, `503` during a storage outage; a
 *   `TypeError` when no configuration is known for the request.
 *
 * @example
 * ```ts
 * // server/routes/signout.post.ts
 * import { signOut } from "@sesame/nuxt/server"
 *
 * export default defineEventHandler((event) => signOut(event, { redirectTo: "/" }))
 * ```
 */
export async function signOut(event: Event, options: SignOutOptions & { redirect: false }): Promise<string>
export async function signOut(event: Event, options?: SignOutOptions & { redirect?: true }): Promise<Response>
export async function signOut(event: Event, options?: SignOutOptions): Promise<Response | string>
export async function signOut(event: Event, options?: SignOutOptions): Promise<Response | string> {
  const prepared = configFor(event, undefined, "signOut")
  return finish(event, await answered(event, () => signOutFromServer(prepared.config, requestLike(event), options)), true)
}
