/**
 * The public types of `@sesame/sveltekit`, and the `auth` it adds to SvelteKit's `App.Locals`.
 *
 * @module
 */
import type { AuthConfig, Session, User } from "@sesame/core"
import type { RequestEvent } from "@sveltejs/kit"

declare global {
  namespace App {
    interface Locals {
      /**
       * The session of the request, or `null` (signed out, or a session that could not be read).
       * Set by the `handle` of `SvelteKitAuth` on every request; read once per request however
       * often it is called, and keeps the session alive (its refreshed cookies are set on the
       * response).
       *
       * While the storage cannot be reached (database sessions, and the database restarts),
       * nothing is known of the session: it rejects with the core's `StorageUnavailable`
       * (`isStorageUnavailable(error)`), never answers `null` for a session that may be live.
       * Uncaught in a `load`, the `handle` hook answers the page with the core's `503` "Try again
       * in a moment" page; `requireSession` throws SvelteKit's `error(503)` for it.
       *
       * @throws `StorageUnavailable` (from `@sesame/core/errors`) during a storage outage.
       */
      auth: () => Promise<Session | null>
    }
  }
}

/**
 * The configuration of {@link SvelteKitAuth}: the core's configuration. `basePath` defaults to
 * `/auth` (unless the path of `AUTH_URL` says otherwise). `raw` is not accepted: the endpoints must
 * answer with a `Response`.
 */
export type SvelteKitAuthConfig = Omit<AuthConfig, "raw">

/**
 * The configuration, or a function of the request's event that returns it (for settings that
 * come from `event.platform` or `$env/dynamic/private`). The function runs once per request;
 * return the same object each time where you can, so that the core validates it once.
 */
export type SvelteKitAuthConfigInput = SvelteKitAuthConfig | ((event: RequestEvent) => SvelteKitAuthConfig | Promise<SvelteKitAuthConfig>)

/** A session with a user: what a protected route can rely on. */
export type AuthenticatedSession = Session & { user: User }
