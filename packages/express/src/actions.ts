/**
 * Signing in and out from the app's own routes: `signIn(req, res, config, …)` and
 * `signOut(req, res, config, …)`, on the core's `signInFromServer` and `signOutFromServer`.
 *
 * Policy:
 * 1. The core does the work, as a post to its own endpoint would, with the browser's headers and
 *    cookies; this module writes what it decided on the Express response: the cookies (in place
 *    of any set earlier in the request for the same names) and, unless `redirect: false`, a `303`
 *    to where the browser goes next (the provider, the verify-request page, `redirectTo`).
 * 2. Errors are the caller's, thrown before anything is written: `CredentialsSignin` for rejected
 *    credentials, `BadRequest` (status `403`) when the browser says the post comes from another
 *    site (the login CSRF defence: the route runs with no CSRF token of Sesame's, so the core
 *    checks `Origin` and `Sec-Fetch-Site`), `AuthError` for anything else. The examples pass
 *    them to `next`: a rejected promise that leaves an Express 4 route ends the process.
 * 3. `redirectTo` goes through the core's `redirect` callback: by default a URL on another origin
 *    becomes the app's own.
 *
 * @module
 */
import type { ServerResponse } from "node:http"
import type { AuthConfig } from "@sesame/core"
import { signInFromServer, signOutFromServer, type AuthorizationParams, type ServerSignInOptions } from "@sesame/core/integration"
import { requestOf } from "./request.js"
import { replaceCookies, seeOther } from "./response.js"
import type { ExpressRequest } from "./types.js"

/**
 * Signs in with `provider` from a route of the app. With an OAuth or OIDC provider the browser is
 * sent to the provider; with an email provider the link is sent and the browser shown the
 * verify-request page; with a credentials or password provider the fields in `options` are
 * checked and the browser sent to `redirectTo` (default: the page it came from when its
 * `Referer` is on this site, else `/`), signed in. Without a provider, or with one that is not
 * configured, the browser goes to the sign-in page.
 *
 * @param req - the request being handled (its headers and cookies are the browser's).
 * @param res - its response: the cookies, and the redirect unless `options.redirect` is `false`.
 * @param config - the configuration given to {@link SesameAuth}.
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
 * app.post("/login", express.urlencoded(), async (req, res, next) => {
 *   try {
 *     await signIn(req, res, authConfig, "credentials", { email: req.body.email, password: req.body.password, redirectTo: "/account" })
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) res.status(401).send("Wrong email or password")
 *     else next(error) // BadRequest (another site's post), AuthError: to the app's error handler
 *   }
 * })
 * ```
 */
export async function signIn(
  req: ExpressRequest,
  res: ServerResponse,
  config: AuthConfig,
  provider?: string,
  options?: FormData | ServerSignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const { url, redirect, cookies } = await signInFromServer(config, requestOf(req), provider, options, authorizationParams)
  replaceCookies(res, cookies)
  if (redirect) seeOther(res, url)
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
 * app.post("/logout", (req, res, next) => {
 *   signOut(req, res, authConfig, { redirectTo: "/" }).catch(next)
 * })
 * ```
 */
export async function signOut(
  req: ExpressRequest,
  res: ServerResponse,
  config: AuthConfig,
  options?: FormData | Pick<ServerSignInOptions, "redirect" | "redirectTo">,
): Promise<string> {
  const { url, redirect, cookies } = await signOutFromServer(config, requestOf(req), options)
  replaceCookies(res, cookies)
  if (redirect) seeOther(res, url)
  return url
}
