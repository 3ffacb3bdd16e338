/**
 * `@sesame/core/client`: the browser's plain HTTP with Sesame's endpoints, which the framework
 * clients (`@sesame/next/react`, `@sesame/solid-start/client`, `@sesame/nuxt`) build on: JSON reads (the session,
 * the CSRF token, the providers), form posts that answer with the redirect target as JSON
 * (`X-Auth-Return-Redirect`) so that the caller decides whether to follow, and navigation.
 *
 * A `503` (the server's storage cannot be reached for a moment: a database restart, a failover)
 * says nothing about the session: every request here rejects with a `StorageUnavailable`
 * (`retryAfter`: the answer's `Retry-After`, in seconds) rather than an answer a caller could take
 * for "signed out" or for a sign-in or sign-out that happened.
 *
 * Nothing here depends on a framework; it needs `fetch` and, to navigate, `window.location`.
 *
 * @module
 */
import { isStorageUnavailable, StorageUnavailable, storageRetryAfter } from "../errors.js"
import type { Session } from "../types.js"

// What the requests here reject with when the server answers `503`, and the check for it.
export { isStorageUnavailable, StorageUnavailable } from "../errors.js"

export { isBasePath, normaliseBasePath } from "../config/base-path.js"

/** A provider as `GET {basePath}/providers` lists it. */
export interface ClientProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** The longest wait a `Retry-After` may ask for here, in seconds: a page is not left stale longer. */
const longestRetryAfter = 60

/** Seconds of a `Retry-After` (seconds or an HTTP date), between 1 and {@link longestRetryAfter}; the core's default without one. */
function retryAfterOf(response: Response): number {
  const header = response.headers.get("retry-after")?.trim() ?? ""
  let seconds = /^\d+$/.test(header) ? Number(header) : header ? Math.ceil((Date.parse(header) - Date.now()) / 1000) : Number.NaN
  if (!Number.isFinite(seconds)) seconds = storageRetryAfter
  return Math.min(Math.max(seconds, 1), longestRetryAfter)
}

/**
 * The `StorageUnavailable` a `503` stands for, with the server's message (the core's JSON body,
 * `{ error: "StorageUnavailable", message }`) when it has one. Any `503` counts (a proxy's too): it
 * says "try again", never "signed out".
 */
async function unavailableOf(response: Response, what: string): Promise<StorageUnavailable> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null
  const message = typeof body?.message === "string" ? body.message : `${what} answered 503: try again in a moment.`
  return new StorageUnavailable(message, { retryAfter: retryAfterOf(response) })
}

/** `GET url` as JSON, never from a cache. Throws a `StorageUnavailable` for a `503`, an `Error` for any other answer but a 2xx. */
export async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
  if (response.status === 503) throw await unavailableOf(response, `GET ${url}`)
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}.`)
  return response.json()
}

/** The session at `basePath`, or null when signed out. Throws when the request fails (a `StorageUnavailable` for a `503`). */
export async function fetchSession(basePath: string): Promise<Session | null> {
  const body = await getJson(`${basePath}/session`)
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Session) : null
}

/** The CSRF token for the next form post (the response also sets its cookie when needed). */
export async function fetchCsrfToken(basePath: string): Promise<string> {
  const body = await getJson(`${basePath}/csrf`)
  const token = typeof body === "object" && body !== null ? (body as { csrfToken?: unknown }).csrfToken : undefined
  if (typeof token !== "string") throw new Error(`GET ${basePath}/csrf answered without a csrfToken.`)
  return token
}

/** The configured providers by id. Throws when the request fails. */
export async function fetchProviders(basePath: string): Promise<Record<string, ClientProvider>> {
  const body = await getJson(`${basePath}/providers`)
  return typeof body === "object" && body !== null ? (body as Record<string, ClientProvider>) : {}
}

/** What a form post answered: its status, and where the server would have redirected. */
export interface FormPostResult {
  status: number
  ok: boolean
  url: string | undefined
}

/**
 * Posts `fields` as a form, asking for the redirect target as JSON instead of a redirect. Throws a
 * `StorageUnavailable` for a `503`: nothing was signed in or out.
 */
export async function postForm(url: string, fields: Record<string, string>): Promise<FormPostResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
    body: new URLSearchParams(fields),
    credentials: "same-origin",
  })
  if (response.status === 503) throw await unavailableOf(response, `POST ${url}`)
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null
  return { status: response.status, ok: response.ok, url: typeof body?.url === "string" ? body.url : undefined }
}

/**
 * Posts `value` as JSON and returns the JSON answer, or null when it is not a 2xx (`POST session`
 * answers `400 null` for an update it refused). Throws a `StorageUnavailable` for a `503`.
 */
export async function postJson(url: string, value: unknown): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(value), credentials: "same-origin" })
  if (response.status === 503) throw await unavailableOf(response, `POST ${url}`)
  return response.ok ? response.json() : null
}

/** Form fields from options: each value as a string; `undefined` and `null` left out. */
export function formFields(fields: Record<string, unknown>): Record<string, string> {
  const form: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    form[name] = typeof value === "string" ? value : String(value)
  }
  return form
}

/** Goes to `url`; a URL that differs from the current one only by its hash reloads the page. */
export function navigate(url: string): void {
  const target = new URL(url, window.location.href)
  const here = new URL(window.location.href)
  window.location.assign(target.href)
  if (target.hash && target.href.split("#")[0] === here.href.split("#")[0]) window.location.reload()
}

// Signing in and out from the browser: the same form posts the built-in pages make, the one flow
// of every framework client (`@sesame/solid-start/client`, the `useSession()` of `@sesame/nuxt`),
// each adding what its framework keeps through the hooks. A `503` means nothing happened: a sign-in
// answering in place returns it as its result (`{ ok: false, status: 503, error:
// "StorageUnavailable" }`), any other rejects with a `StorageUnavailable` and stays on the page.

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
