/**
 * `createSession()`: the session as a reactive value in the browser.
 *
 * It fetches `GET <prefix>/session` once the component is mounted, again whenever the window gets
 * the focus back or the page becomes visible (the session may have ended or started elsewhere),
 * and whenever another tab, or another `createSession()`, signs in or out (a `BroadcastChannel`).
 * Fetching the session also renews a JWT session's cookie, which server-side reads do not.
 *
 * It is built on signals rather than `createResource` on purpose: reading a resource inside
 * `<Suspense>` (SolidStart wraps every route in one) would blank the page on every refetch, and a
 * resource fetched only in the browser would not match the server-rendered HTML during hydration.
 * Here the server and the first client render both show the loading state, and loading is a value
 * (`loading`, `status`) that the page decides how to show.
 *
 * A fetch that fails counts as no session (fail closed), but for a `503`: the server's storage
 * cannot be reached for a moment (a database restart, a failover), which says nothing about the
 * session. The value and status stay what they were (the last session, or `loading` on a first
 * fetch), `error` is the `StorageUnavailable`, and the session is fetched again after the answer's
 * `Retry-After` seconds (one fetch waiting at a time, at most once a minute at the longest), until
 * an answer comes or the owner is cleaned up.
 *
 * @module
 */
import { createSignal, getOwner, onCleanup, onMount, type Accessor } from "solid-js"
import { isServer } from "solid-js/web"
import type { Session } from "@sesame/core"
import { normalisePrefix } from "../prefix.js"
import { listen } from "./broadcast.js"
import { fetchSession, isStorageUnavailable } from "@sesame/core/client"

/** `loading` until the first answer; then whether the session has a user. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/**
 * The session: call it for the value (undefined until the first answer, then the session or
 * null). Its properties are reactive too.
 */
export interface SessionResource extends Accessor<Session | null | undefined> {
  /** True while a fetch is under way (the first one, or a refetch). */
  readonly loading: boolean
  readonly status: SessionStatus
  /**
   * Why the last fetch failed, or undefined: the session is then null, but for a
   * `StorageUnavailable` (a `503`), which keeps the value it had.
   */
  readonly error: Error | undefined
  /**
   * Fetches the session again; resolves to the new value. Rejects with a `StorageUnavailable` while
   * the server answers `503` (the value stays, and is fetched again after `Retry-After`).
   */
  refetch(): Promise<Session | null>
}

export interface CreateSessionOptions {
  /** Where the auth routes live; the `prefix` given to `SolidAuth`. Default `/api/auth`. */
  prefix?: string
  /** Refetch when the window regains focus or the page becomes visible. Default true. */
  refetchOnWindowFocus?: boolean
}

/**
 * Creates the session resource. Call it in a component (or a `createRoot`): the listeners, and a
 * fetch waiting out a `503`'s `Retry-After`, end with its owner.
 *
 * @example
 * ```ts
 * const session = createSession()
 * // session.status === "loading" | "authenticated" | "unauthenticated"
 * // session()?.user?.name
 * ```
 */
export function createSession(options: CreateSessionOptions = {}): SessionResource {
  const prefix = normalisePrefix(options.prefix, "createSession")
  const [value, setValue] = createSignal<Session | null | undefined>(undefined)
  const [pending, setPending] = createSignal(0)
  const [error, setError] = createSignal<Error | undefined>(undefined)
  // Only the answer to the latest request counts: an older one may predate a sign-out.
  let latest = 0
  // The fetch waiting for a 503's Retry-After (one at a time), and whether the owner is gone.
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const cancelRetry = () => {
    if (retry !== undefined) clearTimeout(retry)
    retry = undefined
  }

  async function refetch(): Promise<Session | null> {
    if (isServer) return null
    const request = ++latest
    setPending((n) => n + 1)
    try {
      const session = await fetchSession(prefix)
      if (request === latest) {
        cancelRetry()
        setError(undefined)
        setValue(() => session)
      }
      return session
    } catch (cause) {
      if (isStorageUnavailable(cause)) {
        // Not "signed out": the value stays, and is fetched again after Retry-After.
        if (request === latest) setError(cause)
        if (!stopped && retry === undefined) {
          retry = setTimeout(() => {
            retry = undefined
            load()
          }, cause.retryAfter * 1000)
        }
        throw cause
      }
      // Fail closed: a session that cannot be read is no session.
      if (request === latest) {
        setError(cause instanceof Error ? cause : new Error(String(cause)))
        setValue(null)
      }
      return null
    } finally {
      setPending((n) => n - 1)
    }
  }

  /** `refetch` for the listeners and timers here, which have nobody to hand a rejection to. */
  const load = (): void => {
    if (!stopped) refetch().catch(() => {})
  }

  if (!isServer) {
    const start = () => {
      load()
      const stopListening = listen(prefix, load)
      const onVisible = () => {
        if (document.visibilityState === "visible") load()
      }
      if (options.refetchOnWindowFocus !== false) {
        window.addEventListener("focus", load)
        document.addEventListener("visibilitychange", onVisible)
      }
      onCleanup(() => {
        stopped = true
        cancelRetry()
        stopListening()
        window.removeEventListener("focus", load)
        document.removeEventListener("visibilitychange", onVisible)
      })
    }
    // After hydration, so that the first client render matches the server's (loading).
    if (getOwner()) onMount(start)
    else start()
  }

  const resource = (() => value()) as SessionResource
  Object.defineProperties(resource, {
    loading: { get: () => pending() > 0 || value() === undefined },
    status: {
      get: (): SessionStatus => {
        const session = value()
        return session === undefined ? "loading" : session?.user ? "authenticated" : "unauthenticated"
      },
    },
    error: { get: () => error() },
    refetch: { value: refetch },
  })
  return resource
}
