/**
 * Signing in and out from the app's server functions: `signIn(provider, options)` and
 * `signOut(options)`, on the core's `signInFromServer` / `signOutFromServer` (the core's rules:
 * the browser's `Origin` checked as on a post to the endpoint, so that another site's form cannot
 * sign a visitor in or out; the core's `redirect` callback has the last word on where to go).
 *
 * Policy:
 * 1. The cookies go on the response of the request, whatever it ends with (cookies.ts).
 * 2. The browser is sent on with TanStack Router's redirect, `reloadDocument` on: the next page is
 *    loaded as a document, so every loader and the root's session read see the new session (and a
 *    provider's page or Sesame's own pages, which are no routes of the router, load at all). With
 *    `redirect: false`, the URL is returned instead.
 * 3. Errors: a rejected credentials or password sign-in throws the core's `CredentialsSignin` (with
 *    its `code`) for the app to show its message; a refused request (another site's post) throws a
 *    `400` JSON `Response`, a host the core does not trust too; an outage the core's `503`.
 * 4. After `signOut()`, the request has no session (session.ts, policy 5).
 *
 * @module
 */
import { isStorageUnavailable, refusedActionAnswer, signInFromServer, signOutFromServer, type AuthorizationParams, type ServerRedirect, type ServerSignInOptions } from "@sesame/core/integration"
import { redirect } from "@tanstack/react-router"
import { configFor, currentRequest, stateOf, type Prepared } from "./config.js"
import { writeCookies } from "./cookies.js"
import { unavailableResponse } from "./unavailable.js"

/** Options of `signIn`: `redirectTo`, `redirect`, and the form's fields (`email`, `password`, …). */
export type SignInOptions = ServerSignInOptions
/** Options of `signOut`: `redirectTo`, `redirect`. */
export type SignOutOptions = Pick<ServerSignInOptions, "redirect" | "redirectTo">
export type { AuthorizationParams }

/** Runs `run`, with what the core throws for a refused request or an outage thrown as a `Response` (policy 3). */
async function answeredAsResponse<T>(request: Request, prepared: Prepared, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (caught) {
    if (isStorageUnavailable(caught)) throw unavailableResponse(request, prepared, caught)
    throw refusedActionAnswer(caught) ?? caught
  }
}

/** Writes the cookies, then throws the redirect, or returns the URL for `redirect: false` (policy 1 and 2). */
function finish({ url, redirect: redirects, cookies }: ServerRedirect): string {
  writeCookies(cookies)
  if (!redirects) return url
  throw redirect({ href: url, reloadDocument: true })
}

/**
 * Signs in from a server function, as the provider's sign-in form would: with `credentials` or
 * `password`, the form's fields; an OAuth or OpenID Connect provider sends the browser to it; an
 * email provider sends the link and the browser to the verify-request page.
 *
 * @param provider - the provider's id; none sends the browser to the sign-in page.
 * @param options - `redirectTo` (else the page the browser was on), `redirect: false` to get the URL
 *   back instead of the redirect, and the form's fields, or the form's `FormData`.
 * @param authorizationParams - for the provider's authorization request (`prompt`, `login_hint`, …).
 * @returns the URL, with `redirect: false`; otherwise it throws TanStack Router's redirect.
 * @throws `CredentialsSignin` for rejected credentials; a `400`, `503` `Response` (policy 3).
 *
 * @example
 * ```ts
 * import { createServerFn } from "@tanstack/react-start"
 * import { signIn } from "@sesame/tanstack-start"
 *
 * export const signInWithPassword = createServerFn({ method: "POST" })
 *   .validator((data: { email: string; password: string }) => data)
 *   .handler(({ data }) => signIn("credentials", { ...data, redirectTo: "/dashboard" }))
 * ```
 */
export async function signIn(provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams): Promise<string> {
  const request = currentRequest("signIn")
  const prepared = configFor(request, undefined, "signIn")
  const browser = { headers: request.headers, url: request.url }
  return finish(await answeredAsResponse(request, prepared, () => signInFromServer(prepared.config, browser, provider, options, authorizationParams)))
}

/**
 * Signs out from a server function: the session ends (a database session is deleted), its cookies
 * are cleared, and the browser goes to `redirectTo` (else the page it was on). The rest of the
 * request has no session.
 *
 * @param options - `redirectTo`, `redirect: false` to get the URL back instead of the redirect.
 * @returns the URL, with `redirect: false`; otherwise it throws TanStack Router's redirect.
 *
 * @example
 * ```ts
 * export const logOut = createServerFn({ method: "POST" }).handler(() => signOut({ redirectTo: "/" }))
 * ```
 */
export async function signOut(options?: SignOutOptions): Promise<string> {
  const request = currentRequest("signOut")
  const prepared = configFor(request, undefined, "signOut")
  const browser = { headers: request.headers, url: request.url }
  const decided = await answeredAsResponse(request, prepared, () => signOutFromServer(prepared.config, browser, options))
  stateOf(request).signedOut = true
  return finish(decided)
}
