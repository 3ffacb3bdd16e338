/**
 * `SvelteKitAuth(config)`: the `handle` hook that serves the endpoints and sets
 * `event.locals.auth()`, the form actions `signIn` and `signOut`, and `api(event)`, the plugins'
 * server functions.
 *
 * Every request under the base path goes to the core's `Auth()` as it is, whatever the method or
 * action (`session`, `csrf`, `providers`, `signin`, `callback`, `signout`, the built-in pages…):
 * the core decides what exists and answers the rest with a 4xx. SvelteKit's own CSRF check runs
 * before any hook, on every form post whose `Origin` is not the app's (see the README); the posts
 * the built-in pages and the app's forms make are same-origin and pass it, and the core's
 * same-origin and CSRF-token checks then apply to its endpoints as on any framework.
 *
 * While the storage cannot be reached, a page's request that failed on it (`locals.auth()` rejected
 * with the `StorageUnavailable`, and the page ended in SvelteKit's `503` from `requireSession` or
 * its `500` for an error it did not expect, or a later hook let the error through) is answered
 * with the core's `503` "Try again in a moment" page (JSON for a client that wants JSON) with
 * `Retry-After`, in place of SvelteKit's error page (`unavailable.ts`). A page that caught the
 * outage keeps its own answer; the answers SvelteKit's client reads itself (a navigation's
 * `__data.json`, a `use:enhance` form's action) keep SvelteKit's, which carry the `503`.
 *
 * Any other answer that sets the core's cookies (a session read's, a sign-in's) says
 * `Cache-Control: private, no-store`, replacing what the route said: a shared cache must not keep
 * one visitor's session cookie for the next (the core's rule for its own answers).
 *
 * @module
 */
import { Auth } from "@sesame/core"
import { isStorageUnavailable, isUnderPath, logFor, setPeerAddress } from "@sesame/core/integration"
import type { Handle } from "@sveltejs/kit"
import { signInAction, signOutAction, type SignIn, type SignOut } from "./actions.js"
import { apiOf, type Api } from "./api.js"
import { load, prepare, type Prepared } from "./config.js"
import { attach, attachSignedOut } from "./session.js"
import type { SvelteKitAuthConfigInput } from "./types.js"
import { answeredBySvelteKit, unavailableResponse } from "./unavailable.js"

/** What {@link SvelteKitAuth} returns. */
export interface SvelteKitAuthResult {
  /** The hook for `src/hooks.server.ts`: serves `<basePath>/*` and sets `event.locals.auth`. */
  readonly handle: Handle
  /** Signs in from a form action (or any server code with the event); see {@link SignIn}. */
  readonly signIn: SignIn
  /** Signs out from a form action (or any server code with the event); see {@link SignOut}. */
  readonly signOut: SignOut
  /**
   * The plugins' server functions for the request of `event`: `api(event).<name>(...args)`, acting
   * for the user `event.locals.auth()` reads; see {@link Api}.
   */
  readonly api: Api
}

/**
 * Sesame for a SvelteKit 2 app.
 *
 * @param config - the core's configuration, or a function of the request's event returning it
 *   (run once per request, for settings from `event.platform` or `$env/dynamic/private`). The
 *   endpoints live under `basePath`, `/auth` by default. A configuration that is not an object,
 *   or a `basePath` of `/`, throws a `TypeError` here (for a function: on each request, logged).
 * @returns `{ handle, signIn, signOut, api }`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@sesame/sveltekit"
 * import GitHub from "@sesame/core/providers/github"
 *
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 * ```
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInput): SvelteKitAuthResult {
  // A configuration object is checked now, so that a bad one fails when the module loads.
  if (typeof config !== "function") prepare(config)
  const handle: Handle = async ({ event, resolve }) => {
    let prepared: Prepared
    try {
      prepared = await load(config, event)
    } catch (error) {
      // Fail closed: the request goes on signed out, the guards refuse, the cause is in the log.
      logFor(undefined).error("SvelteKitAuth: the configuration function threw; the request goes on signed out", error)
      attachSignedOut(event)
      return resolve(event)
    }
    // The socket's address (or what the adapter's ADDRESS_HEADER says), for the limits per client;
    // an adapter that cannot tell throws.
    try {
      setPeerAddress(event.request, event.getClientAddress())
    } catch {
      // Unknown: a trusted proxy's header may still say it (`trustedProxy`).
    }
    const state = attach(event, prepared)
    if (isUnderPath(event.url.pathname, prepared.basePath)) return Auth(event.request, prepared.config)
    let response: Response
    try {
      response = await resolve(event)
    } catch (error) {
      // A later hook (an `authorize` of the app's own, a hook reading the session) let the outage through.
      if (isStorageUnavailable(error)) return unavailableResponse(prepared.config, event, error)
      throw error
    }
    // The page failed on the outage (`requireSession`'s 503, or the 500 of an uncaught rejection):
    // the core's answer in place of SvelteKit's error page.
    if (state.unavailable && !answeredBySvelteKit(event) && (response.status === 503 || response.status === 500)) {
      return unavailableResponse(prepared.config, event, state.unavailable)
    }
    // An answer that sets the core's cookies (a renewed session) is one browser's: no shared cache
    // may keep it, whatever the route said (`setHeaders`, a `+server.ts`'s own headers).
    if (state.setsCookies) {
      try {
        response.headers.set("cache-control", "private, no-store")
      } catch {
        // Immutable headers: a later hook's own answer (`Response.redirect`, a `fetch` it passed
        // on), which SvelteKit does not add `event.cookies` to: it carries none of the core's cookies.
      }
    }
    return response
  }
  return Object.freeze({ handle, signIn: signInAction(config), signOut: signOutAction(config), api: apiOf(config) })
}
