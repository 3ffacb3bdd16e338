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
 * @module
 */
import { createSignal, getOwner, onCleanup, onMount, type Accessor } from "solid-js"
import { isServer } from "solid-js/web"
import type { Session } from "@sesame/core"
import { fetchSession } from "@sesame/core/client"
import { normalisePrefix } from "../prefix.js"
import { listen } from "./broadcast.js"

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
  /** Why the last fetch failed (the session is then null), or undefined. */
  readonly error: Error | undefined
  /** Fetches the session again; resolves to the new value. */
  refetch(): Promise<Session | null>
}

export interface CreateSessionOptions {
  /** Where the auth routes live; the `prefix` given to `SolidAuth`. Default `/api/auth`. */
  prefix?: string
  /** Refetch when the window regains focus or the page becomes visible. Default true. */
  refetchOnWindowFocus?: boolean
}

/**
 * Creates the session resource. Call it in a component (or a `createRoot`): the listeners end with
 * its owner.
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

  async function refetch(): Promise<Session | null> {
    if (isServer) return null
    const request = ++latest
    setPending((n) => n + 1)
    try {
      const session = await fetchSession(prefix)
      if (request === latest) {
        setError(undefined)
        setValue(() => session)
      }
      return session
    } catch (cause) {
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

  if (!isServer) {
    const start = () => {
      void refetch()
      const stopListening = listen(prefix, () => void refetch())
      const onFocus = () => void refetch()
      const onVisible = () => {
        if (document.visibilityState === "visible") void refetch()
      }
      if (options.refetchOnWindowFocus !== false) {
        window.addEventListener("focus", onFocus)
        document.addEventListener("visibilitychange", onVisible)
      }
      onCleanup(() => {
        stopListening()
        window.removeEventListener("focus", onFocus)
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
