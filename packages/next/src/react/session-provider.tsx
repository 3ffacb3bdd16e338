"use client"
/**
 * `SessionProvider` and `useSession`: the session in React state, shared by every hook under one
 * provider.
 *
 * Policy:
 * - A `session` given by the server (`await auth()` in a layout) is used at once, so the first
 *   render already knows; without it the provider reads the session on mount (`loading` till then).
 * - The session is read again when the window becomes visible (`refetchOnWindowFocus`), every
 *   `refetchInterval` seconds (not while offline, unless `refetchWhenOffline`), and when another tab
 *   signs in, out or updates.
 * - A read that fails keeps what the provider had: a network hiccup is not a sign-out.
 * - Nor is a `503` (the server's storage cannot be reached for a moment: a database restart, a
 *   failover): the status stays what it was (`authenticated` with the last session, or `loading`
 *   on a first read), and the provider reads again after the answer's `Retry-After` seconds, one
 *   read waiting at a time, until an answer comes or it unmounts (`sessionReader`).
 * - When the server renders a different session than the one the provider holds (after a server
 *   action signed in or out), the provider takes it and tells the other tabs.
 *
 * @module
 */
import type { Session } from "@sesame/core"
import { normaliseBasePath } from "@sesame/core/client"
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react"
import { announce, defaultBasePath, onSessionChange, sessionReader, setDefaultBasePath, updateSession, type SessionReader } from "./client.js"

/** Whether the session is known yet, and whether there is one. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/**
 * Updates the session: with `data`, through `POST session` (trigger `update`; rejects with a
 * `StorageUnavailable` for a `503`, the session unchanged); without, reads it again (a read that
 * fails keeps the session, which it resolves to).
 */
export type UpdateSession = (data?: unknown) => Promise<Session | null>

/** What `useSession` returns. */
export type SessionContextValue =
  | { data: Session; status: "authenticated"; update: UpdateSession }
  | { data: null; status: "unauthenticated"; update: UpdateSession }
  | { data: null; status: "loading"; update: UpdateSession }

interface ProviderState {
  value: SessionContextValue
  basePath: string
}

const SessionContext = createContext<ProviderState | undefined>(undefined)

export interface SessionProviderProps {
  children?: ReactNode
  /** The session the server rendered with (`await auth()`): `null` when signed out. */
  session?: Session | null
  /** The server's `basePath`. Default `/api/auth`. */
  basePath?: string
  /** Read the session again every this many seconds. Default 0 (never). */
  refetchInterval?: number
  /** Read the session again when the window becomes visible. Default true. */
  refetchOnWindowFocus?: boolean
  /** Poll with `refetchInterval` while the browser is offline too. Default false. */
  refetchWhenOffline?: boolean
}

/** The session without its sliding expiry, to tell a real change from a refreshed session. */
function identity(session: Session | null | undefined): string {
  if (session === undefined) return "unknown"
  if (session === null) return "null"
  const { expires: _expires, ...rest } = session
  return JSON.stringify(rest)
}

/** Makes the session available to `useSession` below it. */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, session: initial, refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline = false } = props
  const basePath = normaliseBasePath(props.basePath ?? defaultBasePath)
  setDefaultBasePath(basePath)
  const [session, setSession] = useState<Session | null | undefined>(initial)
  const current = useRef(session)
  current.current = session

  // Made by the effect below, for the base path, and stopped when it changes or the provider unmounts.
  const reader = useRef<SessionReader | undefined>(undefined)
  // A failed read keeps what we had: the next focus or interval tries again, or Retry-After after a 503.
  const refetch = useCallback(async () => reader.current?.read(), [])

  // A session rendered by the server after a server action changed it.
  const lastInitial = useRef(initial)
  useEffect(() => {
    if (initial === lastInitial.current) return
    lastInitial.current = initial
    if (initial === undefined) return
    const changed = identity(initial) !== identity(current.current)
    setSession(initial)
    if (changed) announce(basePath, initial)
  }, [initial, basePath])

  useEffect(() => {
    const read = sessionReader(basePath, setSession)
    reader.current = read
    if (current.current === undefined) void read.read()
    const stopListening = onSessionChange((changedBasePath, next) => {
      if (changedBasePath !== basePath) return
      if (next === undefined) void read.read()
      else setSession(next)
    })
    return () => {
      stopListening()
      read.stop()
      if (reader.current === read) reader.current = undefined
    }
  }, [basePath])

  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisible = () => {
      if (document.visibilityState === "visible") void refetch()
    }
    document.addEventListener("visibilitychange", onVisible)
    return () => document.removeEventListener("visibilitychange", onVisible)
  }, [refetchOnWindowFocus, refetch])

  useEffect(() => {
    if (!refetchInterval) return
    const timer = setInterval(() => {
      if (refetchWhenOffline || navigator.onLine !== false) void refetch()
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetchInterval, refetchWhenOffline, refetch])

  const update = useCallback<UpdateSession>(
    async (data) => {
      if (data === undefined) {
        await refetch()
        return current.current ?? null
      }
      return updateSession(data, { basePath })
    },
    [basePath, refetch],
  )

  const state = useMemo<ProviderState>(() => {
    const value: SessionContextValue = session
      ? { data: session, status: "authenticated", update }
      : session === null
        ? { data: null, status: "unauthenticated", update }
        : { data: null, status: "loading", update }
    return { value, basePath }
  }, [session, update, basePath])

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>
}

/** Options of `useSession`. */
export interface UseSessionOptions {
  /** The page needs a session: when there is none, `onUnauthenticated` runs (default: go to the sign-in page). */
  required?: boolean
  onUnauthenticated?: () => void
}

/**
 * The session, its status and `update`. With `required`, a signed-out visitor is sent to the
 * sign-in page (with `error=SessionRequired` and a `callbackUrl` back), and the status stays
 * `loading` until there is a session.
 */
export function useSession(options: UseSessionOptions = {}): SessionContextValue {
  const state = useContext(SessionContext)
  if (!state) throw new Error("useSession() must be used inside a <SessionProvider>.")
  const { value, basePath } = state
  const { required = false, onUnauthenticated } = options
  const unauthenticated = value.status === "unauthenticated"
  useEffect(() => {
    if (!required || !unauthenticated) return
    if (onUnauthenticated) onUnauthenticated()
    else window.location.href = `${basePath}/signin?${new URLSearchParams({ error: "SessionRequired", callbackUrl: window.location.href })}`
  }, [required, unauthenticated, onUnauthenticated, basePath])
  if (required && value.status !== "authenticated") return { data: null, status: "loading", update: value.update }
  return value
}
