/**
 * `@sesame/tanstack-start`: Sesame for TanStack Start (React), on its server routes, request
 * middleware and server functions. Server-only: import it from `src/start.ts`, server routes and
 * server functions' handlers, never from a component.
 *
 * - `sesame(config)`: the handlers of the auth server route, `src/routes/auth/$.ts`;
 * - `sessionMiddleware(config)`: the session read once per request and kept alive, for
 *   `createMiddleware().server(…)` in `src/start.ts`;
 * - `authorize(config, { protect })`: the same, guarding a list of paths;
 * - `getSession(config?)`: the session, or `null` (it throws `StorageUnavailable` while the
 *   database cannot be reached);
 * - `requireSession(options?, config?)`: the session with a user, or it throws what answers instead
 *   (TanStack Router's redirect to the sign-in page, `401` JSON, `403`, the outage's `503`);
 * - `signIn(provider?, options?, authorizationParams?)`, `signOut(options?)`: from server functions;
 * - `api(config?)`: the plugins' server functions for the request.
 *
 * @module
 */
export { sesame, type ServerRouteHandler } from "./handler.js"
export { getSession, sessionMiddleware, type SesameRequestServerFn } from "./session.js"
export { authorize, requireSession, type AuthorizeOptions, type GuardOptions, type RequireSessionOptions } from "./guard.js"
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./actions.js"
export { api } from "./api.js"
export { defaultBasePath } from "./config.js"
export type { AuthenticatedSession } from "./types.js"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
