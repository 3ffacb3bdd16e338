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
 * Any other answer that sets the core's cookies (a session read's, a sign-in's) says
 * `Cache-Control: private, no-store`, replacing what the route said: a shared cache must not keep
 * one visitor's session cookie for the next (the core's rule for its own answers).
 *
 * @module
 */
import { Auth } from "@sesame/core"
import { isUnderPath, logFor } from "@sesame/core/integration"
import type { Handle } from "@sveltejs/kit"
import { signInAction, signOutAction, type SignIn, type SignOut } from "./actions.js"
import { apiOf, type Api } from "./api.js"
import { load, prepare, type Prepared } from "./config.js"
import { attach, attachSignedOut } from "./session.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

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
    const state = attach(event, prepared)
    if (isUnderPath(event.url.pathname, prepared.basePath)) return Auth(event.request, prepared.config)
    const response = await resolve(event)
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
