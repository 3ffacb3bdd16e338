/**
 * `signIn` and `signOut` in the browser: the same form posts the built-in pages make (with the CSRF
 * token), to the routes under the configured prefix.
 *
 * The server answers with the redirect target as JSON (`X-Auth-Return-Redirect`) rather than a
 * redirect, so a credentials sign-in can report its result in place (`redirect: false`) and the
 * other tabs can be told before this one navigates.
 *
 * A `503` (the server's storage cannot be reached for a moment: a database restart, a failover)
 * means nothing happened, and is never passed off as a success: `signIn` returns it as its result
 * when it answers in place (`redirect: false`: `{ ok: false, status: 503, error:
 * "StorageUnavailable" }`), and otherwise rejects with a `StorageUnavailable` (`retryAfter`
 * seconds) and stays on the page; `signOut` rejects with it, tells no tab and does not navigate
 * (the session stands, and its cookie with it).
 *
 * @module
 */
import { normalisePrefix } from "../prefix.js"
import { announce } from "./broadcast.js"
import { signInFromBrowser, signOutFromBrowser, type AuthorizationParams, type BrowserSignInOptions, type BrowserSignOutOptions, type SignInResult } from "@sesame/core/client"

/** Options of {@link signIn}. Any other key is a form field for the provider (`email`, `password`…). */
export interface SignInOptions extends BrowserSignInOptions {
  /** Where the auth routes live; the `prefix` given to `SolidAuth`. Default `/api/auth`. */
  prefix?: string
}

/** Options of {@link signOut}. */
export interface SignOutOptions extends BrowserSignOutOptions {
  /** Where the auth routes live. Default `/api/auth`. */
  prefix?: string
}

export type { AuthorizationParams, SignInResult }

/**
 * Signs in with `provider` (its id). Without a provider, or with one the server does not list,
 * the browser goes to the sign-in page. The other tabs are told of a sign-in that answered in place.
 *
 * @returns the result when `redirect` is false and the provider answers in place; undefined when
 *   the browser was sent elsewhere (the provider, the callback URL, the sign-in page).
 * @throws `StorageUnavailable` when the server answers `503` and the result cannot say so (a
 *   redirecting sign-in); the browser stays on the page.
 */
export async function signIn(provider?: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<SignInResult | undefined> {
  const { prefix: prefixOption, ...rest } = options
  const prefix = normalisePrefix(prefixOption, "signIn")
  return signInFromBrowser(prefix, provider, rest, authorizationParams, { signedIn: () => announce(prefix, "signin") })
}

/**
 * Signs out (the session cookie is cleared and a database session deleted), tells the other tabs,
 * and goes to `callbackUrl` unless `redirect` is false.
 *
 * @returns the URL the server chose to land on.
 * @throws `StorageUnavailable` when the server answers `503`: nothing was signed out, no tab is
 *   told, and the browser stays on the page.
 */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string }> {
  const { prefix: prefixOption, ...rest } = options
  const prefix = normalisePrefix(prefixOption, "signOut")
  return signOutFromBrowser(prefix, rest, () => announce(prefix, "signout"))
}
