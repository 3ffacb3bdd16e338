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
import { fetchSession, isStorageUnavailable, signInFromBrowser, signOutFromBrowser, type AuthorizationParams, type BrowserSignInOptions, type BrowserSignOutOptions, type SignInResult } from "@sesame/core/client"
import { computed, type Ref } from "vue"
import { useRequestEvent, useRequestFetch } from "nuxt/app"
import { basePathOf, sessionState } from "./state.js"

/** `loading` while nothing is known yet; then whether the session has a user. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/** Options of `signIn`. Any other key is a form field for the provider (`email`, `password`…). */
export type SignInOptions = BrowserSignInOptions
/** Options of `signOut`. */
export type SignOutOptions = BrowserSignOutOptions
export type { AuthorizationParams, SignInResult }

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

  // Signed in in place without leaving the page: the session is read again.
  const signIn = (provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<SignInResult | undefined> =>
    signInFromBrowser(basePath, provider, options, authorizationParams, {
      signedIn: async (redirecting) => {
        if (!redirecting) await refresh().catch(() => undefined)
      },
    })
  const signOut = (options?: SignOutOptions): Promise<{ url: string }> => signOutFromBrowser(basePath, options, () => void (state.value = null))

  return { data, status, refresh, signIn, signOut }
}
