/**
 * `@sesame/astro`: Sesame for Astro 7 (server output; the Node adapter, or any adapter that gives
 * web `Request`s).
 *
 * - `sesame(config)`: the `{ GET, POST }` of the catch-all endpoint `src/pages/auth/[...sesame].ts`;
 * - `sessionMiddleware(config)`: `Astro.locals.session` for every page and endpoint, kept alive;
 * - `authorize(config, { protect })`: a middleware guarding a list of paths;
 * - `getSession(context, config?)`: the session, or `null` (it throws `StorageUnavailable` while the
 *   database cannot be reached);
 * - `requireSession(context, config?, options?)`: the session with a user, or the `Response` to
 *   return (the sign-in redirect, `401` JSON, `403`, the outage's `503`);
 * - `signIn(context, provider?, options?, authorizationParams?)`, `signOut(context, options?)`: from
 *   the app's endpoints and pages;
 * - `api(context, config?)`: the plugins' server functions for the request.
 *
 * `context` is an endpoint's or middleware's `APIContext`, or `Astro` in a page.
 *
 * @module
 */
export { sesame, type EndpointHandler } from "./handler.js"
export { getSession, sessionMiddleware, type Next, type SesameMiddleware } from "./session.js"
export { authorize, requireSession, type AuthorizeOptions, type GuardOptions } from "./guard.js"
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./actions.js"
export { api } from "./api.js"
export { defaultBasePath } from "./config.js"
export type { AstroContext, AuthenticatedSession, SesameLocals } from "./types.js"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
