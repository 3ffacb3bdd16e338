/**
 * Signing in and out from the browser: the same form posts the built-in pages make (with the CSRF
 * token), to the routes under the base path. One flow for every framework client
 * (`@sesame/solid-start/client`, the `useSession()` of `@sesame/nuxt`); each adds what its
 * framework keeps (telling other tabs, a reactive session) through the hooks.
 *
 * The server answers with the redirect target as JSON (`X-Auth-Return-Redirect`) rather than a
 * redirect, so that a credentials sign-in can report its result in place (`redirect: false`).
 *
 * A `503` (the server's storage cannot be reached for a moment) means nothing happened, and is never
 * passed off as a success: `signInFromBrowser` returns it as its result when it answers in place
 * (`{ ok: false, status: 503, error: "StorageUnavailable" }`), and otherwise rejects with a
 * `StorageUnavailable` and stays on the page; `signOutFromBrowser` rejects with it and does not
 * navigate (the session stands, and its cookie with it).
 *
 * @module
 */
import { fetchCsrfToken, fetchProviders, formFields, isStorageUnavailable, navigate, postForm, type FormPostResult } from "./http.js"

/** Options of a sign-in from the browser. Any other key is a form field for the provider (`email`, `password`…). */
export interface BrowserSignInOptions {
  /** Where to land after signing in. Default: the current page. */
  callbackUrl?: string
  /**
   * Default true: go where the server says. False returns the result instead, for the providers
   * that answer in place (credentials, password); an OAuth sign-in always leaves for the provider.
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

/** Options of a sign-out from the browser. */
export interface BrowserSignOutOptions {
  /** Where to land after signing out. Default: the current page. */
  callbackUrl?: string
  /** Default true: go there. False only returns the URL. */
  redirect?: boolean
}

/** Parameters added to the provider's authorization request (`login_hint`, `prompt`…). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** What a framework client does around the flow. */
export interface SignInHooks {
  /** A provider that answers in place signed the user in; `redirecting` says whether the browser leaves next. */
  signedIn?: (redirecting: boolean) => void | Promise<void>
}

function searchParam(url: string, name: string): string | undefined {
  try {
    return new URL(url, window.location.href).searchParams.get(name) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * Signs in with `provider` (its id) at the routes under `basePath`. Without a provider, or with one
 * the server does not list, the browser goes to the sign-in page.
 *
 * @returns the result when `redirect` is false and the provider answers in place; undefined when
 *   the browser was sent elsewhere (the provider, the callback URL, the sign-in page).
 * @throws `StorageUnavailable` when the server answers `503` and the result cannot say so (a
 *   redirecting sign-in); the browser stays on the page.
 */
export async function signInFromBrowser(basePath: string, provider: string | undefined, options: BrowserSignInOptions = {}, authorizationParams?: AuthorizationParams, hooks: SignInHooks = {}): Promise<SignInResult | undefined> {
  const { callbackUrl = window.location.href, redirect = true, ...fields } = options
  const signInPage = `${basePath}/signin?${new URLSearchParams({ callbackUrl })}`
  const listed = provider === undefined ? undefined : (await fetchProviders(basePath))[provider]
  if (!listed) {
    navigate(signInPage)
    return undefined
  }
  const answersInPlace = listed.type === "credentials" || listed.type === "password"
  const query = authorizationParams === undefined ? "" : `?${new URLSearchParams(authorizationParams)}`
  let posted: FormPostResult
  try {
    posted = await postForm(`${basePath}/${answersInPlace ? "callback" : "signin"}/${encodeURIComponent(listed.id)}${query}`, {
      ...formFields(fields),
      csrfToken: await fetchCsrfToken(basePath),
      callbackUrl,
    })
  } catch (error) {
    if (!redirect && answersInPlace && isStorageUnavailable(error)) return { ok: false, status: 503, error: "StorageUnavailable", code: undefined, url: undefined }
    throw error
  }
  const { status, url } = posted
  const error = url === undefined ? "Configuration" : searchParam(url, "error")
  const result: SignInResult = { ok: status < 400 && error === undefined, status, error, code: url === undefined ? undefined : searchParam(url, "code"), url }
  const redirecting = redirect || !answersInPlace
  if (result.ok && answersInPlace) await hooks.signedIn?.(redirecting)
  if (redirecting) {
    navigate(url ?? signInPage)
    return undefined
  }
  return result
}

/**
 * Signs out at the routes under `basePath` (the session cookie is cleared and a database session
 * deleted), then `signedOut()`, then goes to `callbackUrl` unless `redirect` is false.
 *
 * @returns the URL the server chose to land on.
 * @throws `StorageUnavailable` when the server answers `503`: nothing was signed out,
 *   `signedOut` is not called, and the browser stays on the page.
 */
export async function signOutFromBrowser(basePath: string, options: BrowserSignOutOptions = {}, signedOut?: () => void): Promise<{ url: string }> {
  const { callbackUrl = window.location.href, redirect = true } = options
  const { url = callbackUrl } = await postForm(`${basePath}/signout`, { csrfToken: await fetchCsrfToken(basePath), callbackUrl })
  signedOut?.()
  if (redirect) navigate(url)
  return { url }
}
