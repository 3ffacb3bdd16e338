"use client"
/**
 * The browser side of the endpoints: reading the session, the CSRF token and the providers, and
 * signing in and out, at the base path the `SessionProvider` was given (the server's `basePath`).
 *
 * Policy:
 * - One session request at a time per base path: every caller that asks while one is in flight
 *   (all the `useSession` hooks, `getSession()` anywhere) shares its answer.
 * - A change made here (sign-in, sign-out, update) is told to this tab's providers at once and to
 *   the app's other tabs through a `BroadcastChannel`, which then read the session again.
 * - A `503` (the server's storage cannot be reached for a moment: a database restart, a failover)
 *   says nothing about the session, so it is never read as "signed out": the reads and the calls
 *   that change the session reject with a `StorageUnavailable` (`retryAfter`, the answer's
 *   `Retry-After` in seconds) and announce nothing; `signIn` with `redirect: false` returns it as
 *   its `error` instead. The `SessionProvider` keeps what it had and reads again after
 *   `Retry-After` ({@link sessionReader}).
 *
 * @module
 */
import type { Session } from "@sesame/core"
import {
  fetchCsrfToken,
  fetchProviders,
  fetchSession as readSession,
  formFields,
  isStorageUnavailable,
  navigate,
  normaliseBasePath,
  postForm,
  postJson,
  StorageUnavailable,
  type ClientProvider,
  type FormPostResult,
} from "@sesame/core/client"

export type { ClientProvider }
export { isStorageUnavailable, StorageUnavailable }

/** The base path when no `SessionProvider` has said otherwise: the server's default. */
export const defaultBasePath = "/api/auth"

let currentBasePath = defaultBasePath

/** Makes `basePath` the one the functions of this module use by default (the `SessionProvider` calls it). */
export function setDefaultBasePath(basePath: string): void {
  currentBasePath = normaliseBasePath(basePath)
}

/** Options of every function here. */
export interface ClientOptions {
  /** The server's `basePath`. Default: the `SessionProvider`'s, else `/api/auth`. */
  basePath?: string
}

function base(options?: ClientOptions): string {
  const basePath = options?.basePath
  return basePath === undefined ? currentBasePath : normaliseBasePath(basePath)
}

// ---- change notifications ---------------------------------------------------------------------

/** What tabs tell each other: the session at `basePath` changed; read it again. */
interface ChangeMessage {
  type: "sesame.session-changed"
  basePath: string
}

type Listener = (basePath: string, session: Session | null | undefined) => void
const listeners = new Set<Listener>()
let channel: BroadcastChannel | null | undefined

function sharedChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel
  channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("sesame.session") : null
  channel?.addEventListener("message", (event: MessageEvent<ChangeMessage>) => {
    if (event.data?.type !== "sesame.session-changed") return
    for (const listener of listeners) listener(event.data.basePath, undefined)
  })
  return channel
}

/**
 * Listens for session changes: `session` is the new session when this tab made the change, and
 * `undefined` when another tab did (read it again). Returns the function that stops listening.
 */
export function onSessionChange(listener: Listener): () => void {
  sharedChannel()
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Tells this tab's providers the new session, and the other tabs that it changed. */
export function announce(basePath: string, session: Session | null | undefined): void {
  for (const listener of listeners) listener(basePath, session)
  sharedChannel()?.postMessage({ type: "sesame.session-changed", basePath } satisfies ChangeMessage)
}

// ---- reading ----------------------------------------------------------------------------------

const inFlight = new Map<string, Promise<Session | null>>()

/**
 * The session, shared with any read already in flight. Throws when the request fails: a
 * `StorageUnavailable` for a `503`.
 */
export function fetchSession(options?: ClientOptions): Promise<Session | null> {
  const basePath = base(options)
  let pending = inFlight.get(basePath)
  if (!pending) {
    pending = readSession(basePath).finally(() => inFlight.delete(basePath))
    inFlight.set(basePath, pending)
  }
  return pending
}

/**
 * The session, or null when signed out (or when the server cannot be reached). Rejects with a
 * `StorageUnavailable` when the server answers `503` (its storage is down for a moment): that is
 * not "signed out". Try again after its `retryAfter` seconds.
 */
export async function getSession(options?: ClientOptions): Promise<Session | null> {
  try {
    return await fetchSession(options)
  } catch (error) {
    if (isStorageUnavailable(error)) throw error
    return null
  }
}

/** What {@link sessionReader} reads with. */
export interface SessionReader {
  /**
   * Reads the session now (shared with a read in flight) and hands it on. A `503` hands nothing
   * on, and reads again after its `Retry-After` seconds: one read waiting at a time, however many
   * `read()`s fail meanwhile. Any other failure hands nothing on either, and is not retried (the
   * next focus or interval reads again). Never rejects.
   */
  read(): Promise<void>
  /** Cancels the waiting read; nothing is handed on or read after this. */
  stop(): void
}

/**
 * How the `SessionProvider` reads the session: `onSession` gets each session read (or null when
 * signed out), never a guess. While the server answers `503`, what the provider had stands (a
 * session, or `loading` on a first read), and it asks again after each `Retry-After`, until an
 * answer comes or `stop()` (the provider unmounts).
 */
export function sessionReader(basePath: string, onSession: (session: Session | null) => void): SessionReader {
  let stopped = false
  let retry: ReturnType<typeof setTimeout> | undefined
  const cancel = () => {
    if (retry !== undefined) clearTimeout(retry)
    retry = undefined
  }
  const read = async (): Promise<void> => {
    if (stopped) return
    try {
      const session = await fetchSession({ basePath })
      if (stopped) return
      cancel()
      onSession(session)
    } catch (error) {
      // Keep what we had. A 503 reads again after its Retry-After, once.
      if (stopped || !isStorageUnavailable(error) || retry !== undefined) return
      retry = setTimeout(() => {
        retry = undefined
        void read()
      }, error.retryAfter * 1000)
    }
  }
  return {
    read,
    stop() {
      stopped = true
      cancel()
    },
  }
}

/** A CSRF token for a form posted to the endpoints yourself; sets its cookie. Rejects with a `StorageUnavailable` for a `503`. */
export function getCsrfToken(options?: ClientOptions): Promise<string> {
  return fetchCsrfToken(base(options))
}

/** The configured providers by id, or null when they cannot be read. */
export async function getProviders(options?: ClientOptions): Promise<Record<string, ClientProvider> | null> {
  try {
    return await fetchProviders(base(options))
  } catch {
    return null
  }
}

// ---- signing in and out -----------------------------------------------------------------------

/** Options of `signIn`. Further keys are posted to the provider (credentials fields, email). */
export interface SignInOptions extends ClientOptions, Record<string, unknown> {
  /** Where to go once signed in. Default: this page. */
  redirectTo?: string
  /** Same as `redirectTo` (Auth.js's name). */
  callbackUrl?: string
  /** `false` stays on the page and returns the outcome (credentials and email). Default `true`. */
  redirect?: boolean
}

/** What `signIn` returns with `redirect: false`. */
export interface SignInResponse {
  /** The error type (`CredentialsSignin`…, `StorageUnavailable` for a `503`: try again), or null. */
  error: string | null
  /** The `code` of a `CredentialsSignin`, or null. */
  code: string | null
  status: number
  /** True when the sign-in succeeded. */
  ok: boolean
  /** Where the server would have sent the browser. */
  url: string | null
}

/**
 * Signs in. Without a provider, or with one the server does not know, goes to the sign-in page.
 * OAuth providers always navigate (to the provider); `authorizationParams` are added to the
 * authorization request (`{ login_hint: "ada@example.com" }`).
 *
 * When the server answers `503` (its storage is down for a moment), nothing happened: with
 * `redirect: false` (credentials, email) the result says so (`{ ok: false, status: 503, error:
 * "StorageUnavailable" }`); otherwise it rejects with a `StorageUnavailable`, and stays on the page.
 */
export async function signIn(
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: string | Record<string, string> | URLSearchParams | string[][],
): Promise<SignInResponse | undefined> {
  const { basePath: _basePath, redirect = true, redirectTo, callbackUrl: legacyCallbackUrl, ...rest } = options
  const basePath = base(options)
  const callbackUrl = redirectTo ?? legacyCallbackUrl ?? window.location.href
  // Providers that cannot be read send the browser to the sign-in page, but for a 503: thrown.
  const providers = provider ? await fetchProviders(basePath).catch((error: unknown) => (isStorageUnavailable(error) ? Promise.reject(error) : null)) : null
  const found = provider ? providers?.[provider] : undefined
  if (!found) {
    navigate(`${basePath}/signin?${new URLSearchParams({ callbackUrl })}`)
    return undefined
  }
  const inPlace = !redirect && found.type !== "oauth" && found.type !== "oidc"
  const action = found.type === "credentials" || found.type === "password" ? "callback" : "signin"
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : ""
  let posted: FormPostResult
  try {
    const csrfToken = await getCsrfToken(options)
    posted = await postForm(`${basePath}/${action}/${encodeURIComponent(found.id)}${query}`, { ...formFields(rest), csrfToken, callbackUrl })
  } catch (error) {
    if (inPlace && isStorageUnavailable(error)) return { error: "StorageUnavailable", code: null, status: 503, ok: false, url: null }
    throw error
  }
  const { status, ok, url } = posted
  const target = url ? new URL(url, window.location.href) : null
  const error = target?.searchParams.get("error") ?? null
  if (redirect || found.type === "oauth" || found.type === "oidc") {
    if (url) navigate(url)
    return undefined
  }
  // The session as read now; when it cannot be read (the storage went away meanwhile), the providers read it again.
  if (!error && ok) announce(basePath, await getSession(options).catch(() => undefined))
  return { error, code: target?.searchParams.get("code") ?? null, status, ok: ok && !error, url: url || null }
}

/** Options of `signOut`. */
export interface SignOutOptions extends ClientOptions {
  /** Where to go once signed out. Default: this page. */
  redirectTo?: string
  /** Same as `redirectTo` (Auth.js's name). */
  callbackUrl?: string
  /** `false` stays on the page and returns `{ url }`. Default `true`. */
  redirect?: boolean
}

/**
 * Signs out here and in the app's other tabs. Rejects when the server did not sign out (and then
 * tells no tab): with a `StorageUnavailable` for a `503` (its storage is down for a moment; the
 * session stands, and the cookie with it), else with an `Error` naming the status.
 */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const basePath = base(options)
  const callbackUrl = options.redirectTo ?? options.callbackUrl ?? window.location.href
  const csrfToken = await getCsrfToken(options)
  const { status, ok, url = "" } = await postForm(`${basePath}/signout`, { csrfToken, callbackUrl })
  if (!ok) throw new Error(`Signing out failed: the server answered ${status}.`)
  announce(basePath, null)
  if (options.redirect ?? true) {
    navigate(url || callbackUrl)
    return undefined
  }
  return { url }
}

/**
 * Updates the session through `POST session` (your `jwt` callback sees `data` with trigger
 * `update`). Rejects with a `StorageUnavailable` for a `503`, leaving the session as it was.
 */
export async function updateSession(data: unknown, options?: ClientOptions): Promise<Session | null> {
  const basePath = base(options)
  const csrfToken = await getCsrfToken(options)
  const body = await postJson(`${basePath}/session`, { csrfToken, data })
  const session = body && typeof body === "object" ? (body as Session) : null
  announce(basePath, session)
  return session
}
