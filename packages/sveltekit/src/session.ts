/**
 * The session of a request: `event.locals.auth()`, which the `handle` hook sets on every request,
 * and the state the guards and form actions find through the event's `locals`.
 *
 * Policy:
 * 1. The session is read by the core's `readSession` (`@sesame/core/integration`) through the
 *    core's own `session` endpoint under the configured base path, with the request's cookies and
 *    the headers the origin comes from: exactly what the browser would get from
 *    `GET <basePath>/session` (the `jwt` and `session` callbacks run, a database session is looked
 *    up and extended).
 * 2. Once per request: the first call reads, every later call (the layout's `load`, the page's,
 *    a guard's) gets the same answer.
 * 3. It keeps the session alive: the cookies of the read (a re-issued JWT, a database session's
 *    new expiry, a cleared cookie that was no good) are set on the response through
 *    `event.cookies`.
 * 4. It fails closed: a read the core refuses (a configuration error, a host it does not trust)
 *    is logged through the configured logger and answers `null`, a signed-out visitor, as an
 *    adapter that throws does (the core logs that one itself); never an error page, never the
 *    session of another request. Except a storage outage (`StorageUnavailable`: the database
 *    restarts, fails over): nothing is known of the session then, and `null` would send every
 *    signed-in user to the sign-in page. `locals.auth()` rejects with it, unlogged (the core logs
 *    an outage once when it begins and once when it ends), and the request remembers it for the
 *    guards and the hook (`unavailable.ts`). No cookie is set or cleared.
 * 5. A sign-in or sign-out in the request (a form action's `signIn` / `signOut` that does not
 *    redirect, so that SvelteKit renders the page after it) changes the answer: after a sign-out
 *    it is `null` and nothing is read, so that no read re-issues the session cookie the request
 *    came with over the cleared one; after a sign-in the next call reads again, with the cookies
 *    the sign-in set, so that it neither misses the new session nor overwrites its cookie with
 *    the old one's.
 *
 * @module
 */
import type { ResponseCookie, Session } from "@sesame/core"
import type { StorageUnavailable } from "@sesame/core/errors"
import { isStorageUnavailable, readSession, type RequestLike } from "@sesame/core/integration"
import type { RequestEvent } from "@sveltejs/kit"
import type { Prepared } from "./config.js"
import { currentCookieHeader, writeCookies } from "./cookies.js"

/** What the hook leaves for the rest of the request. */
export interface RequestAuth {
  /**
   * The configuration the request was handled with (a lazy one, resolved for this request); null
   * when a lazy configuration threw (logged by the hook): the visitor is signed out, and guards
   * refuse.
   */
  readonly prepared: Prepared | null
  /** The cookies the session read set, for a response the integration makes itself (the hook guard's). */
  cookies: readonly ResponseCookie[]
  /** Whether the response sets cookies of the core's (a read's, a sign-in's, a sign-out's): it must not be cached (cookies.ts, policy 3). */
  setsCookies: boolean
  /**
   * The storage outage the session read met (policy 4): `locals.auth()` rejected with it, and the
   * hook answers the core's `503` for a request that failed on it.
   */
  unavailable?: StorageUnavailable
  /** The answer of `locals.auth()` once asked (policy 2); replaced by a sign-in or sign-out (policy 5). */
  pending?: Promise<Session | null>
  /**
   * The request the next read is made with, and the one the plugins' server functions get
   * (`api(event)`): the browser's, or after a sign-in or sign-out the same with the cookies as
   * `event.cookies` has them then (policy 5).
   */
  source: RequestLike
}

/** Per request, keyed by its `locals` (one object for the whole request, through `sequence`). */
const requests = new WeakMap<App.Locals, RequestAuth>()

/** Sets `event.locals.auth` for `prepared` (policy 2, 3, 4) and records the request's state, which it returns. */
export function attach(event: RequestEvent, prepared: Prepared): RequestAuth {
  const state: RequestAuth = { prepared, cookies: [], setsCookies: false, source: event.request }
  const read = async (): Promise<Session | null> => {
    try {
      const { session, cookies } = await readSession(prepared.config, state.source)
      state.cookies = cookies
      writeFor(event, cookies)
      return session
    } catch (error) {
      // An outage is not "signed out", and the core logged it where it began (policy 4).
      if (isStorageUnavailable(error)) {
        state.unavailable = error
        throw error
      }
      prepared.log.error("locals.auth() could not read the session and answers null (signed out)", error)
      return null
    }
  }
  event.locals.auth = () => (state.pending ??= read())
  requests.set(event.locals, state)
  return state
}

/** `event.locals.auth` for a request whose configuration could not be made: signed out (policy 4). */
export function attachSignedOut(event: RequestEvent): void {
  event.locals.auth = () => Promise.resolve(null)
  requests.set(event.locals, { prepared: null, cookies: [], setsCookies: false, source: event.request })
}

/** Sets `cookies` on `event`'s response, and records that it sets them (cookies.ts, policy 3). */
export function writeFor(event: RequestEvent, cookies: readonly ResponseCookie[]): void {
  const state = requests.get(event.locals)
  if (writeCookies(event.cookies, cookies) && state) state.setsCookies = true
}

/**
 * Tells `locals.auth()` that a sign-in or sign-out has set its cookies on `event` (policy 5): after
 * a sign-out it answers `null`; after a sign-in it reads again, with those cookies.
 */
export function sessionChanged(event: RequestEvent, by: "signIn" | "signOut"): void {
  const state = requests.get(event.locals)
  if (!state) return
  // The request as it now is, for the next read and `api(event)`: a sign-out's cleared cookie is left out.
  const headers = new Headers(event.request.headers)
  headers.set("cookie", currentCookieHeader(event.cookies))
  state.source = { url: event.request.url, headers }
  state.pending = by === "signOut" ? Promise.resolve(null) : undefined
  // The storage answered the sign-in or sign-out: an outage met before is no longer this request's.
  state.unavailable = undefined
}

/**
 * The request of `event` as the core's server functions get it: the one `locals.auth()` reads
 * (after a sign-in or sign-out in the request, with the cookies as they are now); the browser's own
 * when the hook did not run.
 */
export function currentRequest(event: RequestEvent): Request {
  const source = requests.get(event.locals)?.source ?? event.request
  return source === event.request ? event.request : new Request(source.url, { headers: source.headers })
}

/**
 * The state `handle` left on `event`; throws an `Error` saying what to do when the hook did not run
 * (a guard or action used without `export { handle }` in `src/hooks.server.ts`, or a guard placed
 * before it in `sequence`).
 */
export function requestAuth(event: RequestEvent, owner: string): RequestAuth {
  const state = requests.get(event.locals)
  if (!state) {
    throw new Error(
      `${owner} needs the \`handle\` of SvelteKitAuth to run first: export it from src/hooks.server.ts (\`export { handle } from "./auth"\`), and put it before ${owner} in \`sequence(...)\`.`,
    )
  }
  return state
}

/** The configuration `handle` resolved for `event`, if it ran and could. */
export function preparedOf(event: RequestEvent): Prepared | undefined {
  return requests.get(event.locals)?.prepared ?? undefined
}
