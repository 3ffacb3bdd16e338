/**
 * `@sesame/express`: Sesame for Express 5 and 4.
 *
 * - `SesameAuth(config)`: the endpoints, for `app.use("/auth", SesameAuth(config))`;
 * - `getSession(req, config)`: the session or `null`, kept alive on the response;
 * - `sessionLocals(config)`: a middleware putting it in `res.locals.session` for every view;
 * - `api(req, config)`: the plugins' server functions for the request (`api(req, config).<name>(…)`);
 * - `requireSession(config, { allow }?)`: the guard, on a route or in front of a group (a redirect
 *   to the sign-in page for a page, `401` JSON for a client that wants JSON; `503` while the
 *   storage cannot be reached; `403` when the app's `allow` check refuses the signed-in session);
 * - `unavailableHandler(config)`: an error handler answering a `StorageUnavailable` (what
 *   `getSession` throws, and `sessionLocals` passes on, during a storage outage) with the core's
 *   "try again" page or JSON;
 * - `signIn(req, res, config, provider?, options?, authorizationParams?)` and
 *   `signOut(req, res, config, options?)`: from the app's own routes.
 *
 * @module
 */
export { SesameAuth } from "./handler.js"
export { getSession, sessionLocals, type AuthenticatedSession } from "./session.js"
export { api } from "./api.js"
export { requireSession, type RequireSessionOptions } from "./guard.js"
export { unavailableHandler } from "./unavailable.js"
export { signIn, signOut } from "./actions.js"
export type { ErrorMiddleware, ExpressRequest, ExpressResponse, Middleware, NextFunction } from "./types.js"
export { AuthError, BadRequest, CredentialsSignin, StorageUnavailable } from "@sesame/core/errors"
export { isStorageUnavailable } from "@sesame/core/integration"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { AuthorizationParams, ModuleApi, ServerSignInOptions } from "@sesame/core/integration"
