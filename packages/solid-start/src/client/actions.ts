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
import { fetchCsrfToken, fetchProviders, formFields, isStorageUnavailable, navigate, postForm, type FormPostResult } from "@sesame/core/client"

/** Options of {@link signIn}. Any other key is a form field for the provider (`email`, `password`…). */
export interface SignInOptions {
  /** Where the auth routes live; the `prefix` given to `SolidAuth`. Default `/api/auth`. */
  prefix?: string
  /** Where to land after signing in. Default: the current page. */
  callbackUrl?: string
  /**
   * Default true: go where the server says. False returns the result instead, for providers that
   * answer in place (credentials); an OAuth sign-in always leaves for the provider.
   */
  redirect?: boolean
  [field: string]: unknown
}

/** What a sign-in that did not navigate away returns. */
export interface SignInResult {
  /** True when the user is signed in. */
  ok: boolean
  /** The HTTP status of the sign-in request. */
  status: number
  /** The error type (`CredentialsSignin`, `MissingCSRF`…, `StorageUnavailable` for a `503`: try again), when it failed. */
  error: string | undefined
  /** The `code` of a `CredentialsSignin`, when the provider set one. */
  code: string | undefined
  /** Where the server would have sent the browser. */
  url: string | undefined
}

/** Options of {@link signOut}. */
export interface SignOutOptions {
  /** Where the auth routes live. Default `/api/auth`. */
  prefix?: string
  /** Where to land after signing out. Default: the current page. */
  callbackUrl?: string
  /** Default true: go there. False only returns the URL. */
  redirect?: boolean
}

/** Parameters added to the provider's authorization request (`login_hint`, `prompt`…). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/**
 * Signs in with `provider` (its id). Without a provider, or with one the server does not list,
 * the browser goes to the sign-in page.
 *
 * @returns the result when `redirect` is false and the provider answers in place; undefined when
 *   the browser was sent elsewhere (the provider, the callback URL, the sign-in page).
 * @throws `StorageUnavailable` when the server answers `503` and the result cannot say so (a
 *   redirecting sign-in); the browser stays on the page.
 */
export async function signIn(provider?: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<SignInResult | undefined> {
  const { prefix: prefixOption, callbackUrl = window.location.href, redirect = true, ...fields } = options
  const prefix = normalisePrefix(prefixOption, "signIn")
  const signInPage = `${prefix}/signin?${new URLSearchParams({ callbackUrl })}`
  const listed = provider === undefined ? undefined : (await fetchProviders(prefix))[provider]
  if (!listed) {
    navigate(signInPage)
    return undefined
  }
  const answersInPlace = listed.type === "credentials" || listed.type === "password"
  const query = authorizationParams === undefined ? "" : `?${new URLSearchParams(authorizationParams)}`
  const action = answersInPlace ? "callback" : "signin"
  let posted: FormPostResult
  try {
    posted = await postForm(`${prefix}/${action}/${encodeURIComponent(listed.id)}${query}`, {
      ...formFields(fields),
      csrfToken: await fetchCsrfToken(prefix),
      callbackUrl,
    })
  } catch (error) {
    if (!redirect && answersInPlace && isStorageUnavailable(error)) return { ok: false, status: 503, error: "StorageUnavailable", code: undefined, url: undefined }
    throw error
  }
  const { status, url } = posted
  const error = url === undefined ? "Configuration" : searchParam(url, "error")
  const result: SignInResult = { ok: status < 400 && error === undefined, status, error, code: url === undefined ? undefined : searchParam(url, "code"), url }
  if (result.ok && answersInPlace) announce(prefix, "signin")
  if (redirect || !answersInPlace) {
    navigate(url ?? signInPage)
    return undefined
  }
  return result
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
  const { callbackUrl = window.location.href, redirect = true } = options
  const prefix = normalisePrefix(options.prefix, "signOut")
  const { url = callbackUrl } = await postForm(`${prefix}/signout`, { csrfToken: await fetchCsrfToken(prefix), callbackUrl })
  announce(prefix, "signout")
  if (redirect) navigate(url)
  return { url }
}

function searchParam(url: string, name: string): string | undefined {
  try {
    return new URL(url, window.location.href).searchParams.get(name) ?? undefined
  } catch {
    return undefined
  }
}
