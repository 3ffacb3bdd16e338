/**
 * Signing in and out from the app's own routes: `signIn(request, reply, config, …)` and
 * `signOut(request, reply, config, …)`, on the core's `signInFromServer` and `signOutFromServer`.
 *
 * Policy:
 * 1. The core does the work, as a post to its own endpoint would, with the browser's headers and
 *    cookies; this module writes what it decided on the Fastify reply: the cookies (in place of
 *    any set earlier in the request for the same names) and, unless `redirect: false`, a `303` to
 *    where the browser goes next (the provider, the verify-request page, `redirectTo`), sent at
 *    once: the route then returns `reply`.
 * 2. Errors are the caller's, thrown before anything is written: `CredentialsSignin` for rejected
 *    credentials, `BadRequest` (status `403`) when the browser says the post comes from another
 *    site (the login CSRF defence: the route runs with no CSRF token of Sesame's, so the core
 *    checks `Origin` and `Sec-Fetch-Site`), `AuthError` for anything else. A route that lets one
 *    go hands it to Fastify's error handling, which answers with its `status`.
 * 3. `redirectTo` goes through the core's `redirect` callback: by default a URL on another origin
 *    becomes the app's own.
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { signInFromServer, signOutFromServer, type AuthorizationParams, type ServerSignInOptions } from "@sesame/core/integration"
import type { FastifyReply, FastifyRequest } from "fastify"
import { requestOf } from "./request.js"
import { replaceCookies, seeOther } from "./response.js"

/**
 * Signs in with `provider` from a route of the app. With an OAuth or OIDC provider the browser is
 * sent to the provider; with an email provider the link is sent and the browser shown the
 * verify-request page; with a credentials or password provider the fields in `options` are
 * checked and the browser sent to `redirectTo` (default: the page it came from when its
 * `Referer` is on this site, else `/`), signed in. Without a provider, or with one that is not
 * configured, the browser goes to the sign-in page.
 *
 * @param request - the request being handled (its headers and cookies are the browser's).
 * @param reply - its reply: the cookies, and the redirect (sent) unless `options.redirect` is `false`.
 * @param config - the configuration given to the {@link sesame} plugin.
 * @param provider - a provider's id (`"credentials"`, `"github"`…).
 * @param options - `redirectTo`, `redirect` (`true` unless the boolean `false`; a form's text
 *   field never stops the redirect) and the provider's fields (`email`, `password`…), as an object
 *   or a `FormData`. Pass the fields you mean, not a whole parsed body.
 * @param authorizationParams - extra parameters for an OAuth provider (`login_hint`, `prompt`…).
 * @returns where the browser is sent (or, with `redirect: false`, should be).
 * @throws `CredentialsSignin` when the credentials are rejected; `BadRequest` (status `403`) when
 *   the post comes from another site; `AuthError` for any other failure. Nothing is written then.
 *
 * @example
 * ```ts
 * app.post<{ Body: { email: string; password: string } }>("/login", async (request, reply) => {
 *   try {
 *     await signIn(request, reply, authConfig, "credentials", { email: request.body.email, password: request.body.password, redirectTo: "/account" })
 *     return reply
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return reply.code(401).send("Wrong email or password")
 *     throw error // BadRequest (another site's post, 403), AuthError: to Fastify's error handler
 *   }
 * })
 * ```
 */
export async function signIn(
  request: FastifyRequest,
  reply: FastifyReply,
  config: AuthConfig,
  provider?: string,
  options?: FormData | ServerSignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const { url, redirect, cookies } = await signInFromServer(config, requestOf(request), provider, options, authorizationParams)
  replaceCookies(reply, cookies)
  if (redirect) seeOther(reply, url)
  return url
}

/**
 * Signs out from a route of the app: a database session is deleted, the session cookie cleared,
 * and the browser sent to `redirectTo` (default: the page it came from when its `Referer` is on
 * this site, else `/`) unless `redirect` is `false`.
 *
 * @param options - `redirectTo` and `redirect` (`true` unless the boolean `false`).
 * @returns where the browser is sent (or, with `redirect: false`, should be).
 * @throws `BadRequest` (status `403`) when the post comes from another site; `AuthError` for any
 *   other failure. Nothing is written then.
 *
 * @example
 * ```ts
 * app.post("/logout", async (request, reply) => {
 *   await signOut(request, reply, authConfig, { redirectTo: "/" })
 *   return reply
 * })
 * ```
 */
export async function signOut(
  request: FastifyRequest,
  reply: FastifyReply,
  config: AuthConfig,
  options?: FormData | Pick<ServerSignInOptions, "redirect" | "redirectTo">,
): Promise<string> {
  const { url, redirect, cookies } = await signOutFromServer(config, requestOf(request), options)
  replaceCookies(reply, cookies)
  if (redirect) seeOther(reply, url)
  return url
}
