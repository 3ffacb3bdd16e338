/**
 * `@sesame/react-router`: Sesame for React Router 7 in framework mode (server rendering, route
 * middleware with `future.v8_middleware`).
 *
 * - `sesame(config)`: the `{ loader, action }` of the auth resource route, `app/routes/auth.ts` at
 *   `route("auth/*", "routes/auth.ts")`;
 * - `sessionMiddleware(config)`: the session read once per request and kept alive, in `app/root.tsx`;
 * - `authorize(config, { protect })`: a middleware guarding a list of paths;
 * - `getSession(args, config?)`: the session, or `null` (it throws `StorageUnavailable` while the
 *   database cannot be reached);
 * - `requireSession(args, config?, options?)`: the session with a user, or it throws the `Response`
 *   that answers instead (the sign-in redirect, `401` JSON, `403`, the outage's `503`);
 * - `signIn(args, provider?, options?, authorizationParams?)`, `signOut(args, options?)`: from the
 *   app's actions;
 * - `api(args, config?)`: the plugins' server functions for the request.
 *
 * `args` is what React Router gives a loader, an action or a middleware (`Route.LoaderArgs`…).
 *
 * @module
 */
export { sesame, type ResourceHandler } from "./handler.js"
export { getSession, sessionMiddleware, type Next, type SesameMiddleware } from "./session.js"
export { authorize, requireSession, type AuthorizeOptions, type GuardOptions } from "./guard.js"
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./actions.js"
export { api } from "./api.js"
export { defaultBasePath } from "./config.js"
export type { AuthenticatedSession, RouteArgs } from "./types.js"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
