/**
 * `@sesame/sveltekit`: Sesame for SvelteKit 2.
 *
 * - `SvelteKitAuth(config)` → `{ handle, signIn, signOut, api }`: the hook that serves the
 *   endpoints under `basePath` (`/auth`) and sets `event.locals.auth()`, the form actions, and the
 *   plugins' server functions for a request (`api(event).<name>(…)`);
 * - `requireSession(event, options?)`: the guard a `load`, a form action or a `+server.ts` calls;
 * - `authorize({ protect, redirectTo?, allow? })`: the guard as a hook, for `sequence(handle, …)`;
 *   both take `allow(session, event)`, the app's check of the signed-in session (`403` when it
 *   refuses).
 *
 * Importing it adds `auth: () => Promise<Session | null>` to `App.Locals`. While the database cannot
 * be reached, `locals.auth()` rejects with `StorageUnavailable` (`isStorageUnavailable`), and the
 * guards and the hook answer the core's `503` "try again" instead of the sign-in redirect.
 *
 * @module
 */
export { SvelteKitAuth, type SvelteKitAuthResult } from "./handle.js"
export { authorize, requireSession, type AuthorizeOptions, type GuardOptions } from "./guard.js"
export type { Redirection, SignIn, SignOut } from "./actions.js"
export type { Api } from "./api.js"
export { defaultBasePath } from "./config.js"
export type { AuthenticatedSession, SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./types.js"
export type { ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
