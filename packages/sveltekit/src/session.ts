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
 *    session of another request.
 *
 * @module
 */
import type { ResponseCookie, Session } from "@sesame/core"
import { readSession } from "@sesame/core/integration"
import type { RequestEvent } from "@sveltejs/kit"
import type { Prepared } from "./config.js"
import { writeCookies } from "./cookies.js"

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
}

/** Per request, keyed by its `locals` (one object for the whole request, through `sequence`). */
const requests = new WeakMap<App.Locals, RequestAuth>()

/** Sets `event.locals.auth` for `prepared` (policy 2, 3, 4) and records the request's state. */
export function attach(event: RequestEvent, prepared: Prepared): void {
  const state: RequestAuth = { prepared, cookies: [] }
  let pending: Promise<Session | null> | undefined
  const read = async (): Promise<Session | null> => {
    try {
      const { session, cookies } = await readSession(prepared.config, event.request)
      state.cookies = cookies
      writeCookies(event.cookies, cookies)
      return session
    } catch (error) {
      prepared.log.error("locals.auth() could not read the session and answers null (signed out)", error)
      return null
    }
  }
  event.locals.auth = () => (pending ??= read())
  requests.set(event.locals, state)
}

/** `event.locals.auth` for a request whose configuration could not be made: signed out (policy 4). */
export function attachSignedOut(event: RequestEvent): void {
  event.locals.auth = () => Promise.resolve(null)
  requests.set(event.locals, { prepared: null, cookies: [] })
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
