/**
 * `@sesame/nuxt/server`: Sesame on Nuxt's server (Nitro, h3 v1): the auth route, the session for
 * every request, guards, and sign-in and sign-out from the app's own routes.
 *
 * - `sesameHandler(config)`: the route `server/routes/auth/[...].ts`;
 * - `sessionMiddleware(config)`: `event.context.session` for every request, kept alive;
 * - `authorize(config, { protect })`: a server middleware guarding a list of paths;
 * - `getServerSession(event, config?)`: the session, or `null` (it throws `StorageUnavailable`
 *   while the database cannot be reached);
 * - `requireSession(event, config?, options?)`: the session with a user, or the `Response` to
 *   return (the sign-in redirect, `401` JSON, `403`, the outage's `503`);
 * - `signIn(event, provider?, options?, authorizationParams?)`, `signOut(event, options?)`;
 * - `api(event, config?)`: the plugins' server functions for the request.
 *
 * @module
 */
export { sesameHandler } from "./handler.js"
export { getServerSession, sessionMiddleware } from "./session.js"
export { authorize, requireSession, type AuthorizeOptions, type GuardOptions } from "./guard.js"
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./actions.js"
export { api } from "./api.js"
export { defaultBasePath } from "./config.js"
export type { AuthenticatedSession, SesameContext } from "./types.js"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
