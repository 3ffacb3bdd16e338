/**
 * `@sesame/fastify`: Sesame for Fastify 5.
 *
 * - `sesame`: the plugin, `app.register(sesame, { config })`: the endpoints under the base path
 *   (on the core's Node.js handler) and `request.session`;
 * - `sessionHook(config)`: a hook putting the session (or `null`) in `request.session`, kept alive;
 * - `getSession(request, reply, config)`: the session or `null`, kept alive on the reply;
 * - `api(request, config)`: the plugins' server functions for the request (`api(request, config).<name>(…)`);
 * - `requireSession(config, { allow }?)`: the guard, a `preHandler` hook (a redirect to the sign-in
 *   page for a page, `401` JSON for a client that wants JSON; `503` while the storage cannot be
 *   reached; `403` when the app's `allow` check refuses the signed-in session);
 * - `unavailableHandler(config)`: an error handler answering a `StorageUnavailable` (what
 *   `getSession` throws, and `sessionHook` hands on, during a storage outage) with the core's
 *   "try again" page or JSON;
 * - `signIn(request, reply, config, provider?, options?, authorizationParams?)` and
 *   `signOut(request, reply, config, options?)`: from the app's own routes.
 *
 * @module
 */
export { sesame, type SesameOptions } from "./plugin.js"
export { getSession, sessionHook } from "./session.js"
export { api } from "./api.js"
export { requireSession, type RequireSessionOptions } from "./guard.js"
export { unavailableHandler } from "./unavailable.js"
export { signIn, signOut } from "./actions.js"
export type { AuthenticatedSession, SesameHook } from "./types.js"
export { AuthError, BadRequest, CredentialsSignin, StorageUnavailable } from "@sesame/core/errors"
export { isStorageUnavailable } from "@sesame/core/integration"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { AuthorizationParams, ModuleApi, ServerSignInOptions } from "@sesame/core/integration"
