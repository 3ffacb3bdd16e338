/**
 * `useSession()`: the session in the app's components, pages and route middleware (auto-imported
 * by the module).
 *
 * On the server the plugin has the session already (`event.context.session`, which the server
 * middleware `sessionMiddleware` read for the request), and it goes to the browser in the payload:
 * the first render in the browser matches the server's, with no request. `refresh()` asks
 * `<basePath>/session` again.
 *
 * `signIn` and `signOut` make, in the browser, the form posts Sesame's own pages make (with the
 * CSRF token), on `@sesame/core/client`, then navigate where the server says. A `503` (the server's
 * storage cannot be reached for a moment) is never taken for "signed out" nor for a sign-in or
 * sign-out that happened: `refresh()` keeps the value it had and rejects with the
 * `StorageUnavailable`, and so do `signIn` (but a credentials sign-in with `redirect: false`, which
 * returns it as its result) and `signOut`, which stay on the page.
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { fetchCsrfToken, fetchProviders, fetchSession, formFields, isStorageUnavailable, navigate, postForm, type FormPostResult } from "@sesame/core/client"
import { computed, type Ref } from "vue"
import { useRequestEvent, useRequestFetch } from "nuxt/app"
import { basePathOf, sessionState } from "./state.js"

/** `loading` while nothing is known yet; then whether the session has a user. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/** Options of `signIn`. Any other key is a form field for the provider (`email`, `password`…). */
export interface SignInOptions {
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
  /** The error type (`CredentialsSignin`…, `StorageUnavailable` for a `503`), when it failed. */
  error: string | undefined
  /** The `code` of a `CredentialsSignin`, when the provider set one. */
  code: string | undefined
  /** Where the server would have sent the browser. */
  url: string | undefined
}

/** Options of `signOut`. */
export interface SignOutOptions {
  /** Where to land after signing out. Default: the current page. */
  callbackUrl?: string
  /** Default true: go there. False only returns the URL (the session is `null` at once). */
  redirect?: boolean
}

/** Parameters added to the provider's authorization request (`login_hint`, `prompt`…). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** What `useSession()` returns. */
export interface UseSession {
  /** The session, or `null` when signed out (and while nothing is known yet). */
  data: Readonly<Ref<Session | null>>
  status: Readonly<Ref<SessionStatus>>
  /** Reads the session again; resolves to it. Rejects with a `StorageUnavailable` on a `503` (the value stays). */
  refresh(): Promise<Session | null>
  /** Signs in with `provider` (its id), or goes to the sign-in page without one. In the browser only. */
  signIn(provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<SignInResult | undefined>
  /** Signs out, then goes to `callbackUrl` (default: the current page). In the browser only. */
  signOut(options?: SignOutOptions): Promise<{ url: string }>
}

/** The session as the server middleware read it for this request, when it ran (`undefined` otherwise). */
function fromServerMiddleware(): Session | null | undefined {
  const context = useRequestEvent()?.context as { session?: Session | null } | undefined
  return context && "session" in context ? (context.session ?? null) : undefined
}

/**
 * Reads the session into the state: on the server, the server middleware's read, else
 * `GET <basePath>/session` through Nitro with the request's cookies; in the browser,
 * `GET <basePath>/session`. Must be called where Nuxt's context is (a plugin, a setup function,
 * a route middleware) on the server; anywhere in the browser.
 */
export function sessionLoader(): () => Promise<Session | null> {
  const state = sessionState()
  const basePath = basePathOf()
  if (typeof window === "undefined") {
    const known = fromServerMiddleware()
    const requestFetch = useRequestFetch()
    return async () => {
      if (known !== undefined) return (state.value = known)
      try {
        const body = await requestFetch<unknown>(`${basePath}/session`, { headers: { accept: "application/json" } })
        return (state.value = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Session) : null)
      } catch (error) {
        // A 503 says nothing of the session: the state stays unknown, and the browser asks.
        if ((error as { status?: unknown; statusCode?: unknown }).statusCode === 503 || (error as { status?: unknown }).status === 503) return null
        return (state.value = null)
      }
    }
  }
  // Only the answer to the latest request counts: an older one may predate a sign-out.
  let latest = 0
  return async () => {
    const request = ++latest
    try {
      const session = await fetchSession(basePath)
      if (request === latest) state.value = session
      return session
    } catch (error) {
      if (isStorageUnavailable(error)) throw error
      // Fail closed: a session that cannot be read is no session.
      if (request === latest) state.value = null
      return null
    }
  }
}

function searchParam(url: string, name: string): string | undefined {
  try {
    return new URL(url, window.location.href).searchParams.get(name) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * The session and what to do with it.
 *
 * @example
 * ```ts
 * const { data, status, signOut } = useSession()
 * // status.value === "loading" | "authenticated" | "unauthenticated"
 * // data.value?.user?.name
 * ```
 */
export function useSession(): UseSession {
  const state = sessionState()
  const basePath = basePathOf()
  const refresh = sessionLoader()
  const data = computed(() => state.value ?? null)
  const status = computed<SessionStatus>(() => (state.value === undefined ? "loading" : state.value?.user ? "authenticated" : "unauthenticated"))

  async function signIn(provider?: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<SignInResult | undefined> {
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
    const { status: code, url } = posted
    const error = url === undefined ? "Configuration" : searchParam(url, "error")
    const result: SignInResult = { ok: code < 400 && error === undefined, status: code, error, code: url === undefined ? undefined : searchParam(url, "code"), url }
    if (redirect || !answersInPlace) {
      navigate(url ?? signInPage)
      return undefined
    }
    if (result.ok) await refresh().catch(() => undefined)
    return result
  }

  async function signOut(options: SignOutOptions = {}): Promise<{ url: string }> {
    const { callbackUrl = window.location.href, redirect = true } = options
    const { url = callbackUrl } = await postForm(`${basePath}/signout`, { csrfToken: await fetchCsrfToken(basePath), callbackUrl })
    state.value = null
    if (redirect) navigate(url)
    return { url }
  }

  return { data, status, refresh, signIn, signOut }
}
