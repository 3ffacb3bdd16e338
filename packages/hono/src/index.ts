/**
 * `@sesame/hono`: Sesame for Hono, on Node.js (`@hono/node-server`) and on edge runtimes
 * (Cloudflare Workers, Deno, Bun: the JWT session strategy there, no `node:` import on the way).
 *
 * - `sesame(config)`: the handler of the auth routes (`app.on(["GET", "POST"], "/auth/*", …)`);
 * - `sessionMiddleware(config)`: `c.get("session")` for every route, kept alive;
 * - `getSession(c, config?)`: the session, or `null` (it throws `StorageUnavailable` while the
 *   database cannot be reached; the guards then answer the core's `503` "try again");
 * - `api(c, config?)`: the plugins' server functions for the request (`api(c).<name>(…)`);
 * - `requireSession(config, { allow }?)`: the middleware guard (a redirect for pages, `401` JSON for
 *   APIs; `403` when the app's `allow` check refuses the signed-in session);
 * - `assertSession(c, config?, { allow }?)`: the same check, called by the route itself;
 * - `signIn(c, provider?, options?, authorizationParams?)`, `signOut(c, options?)`: from the app's routes.
 *
 * `config` is the core's `AuthConfig`, or a function of the context returning it.
 *
 * @module
 */
export { sesame } from "./handler.js"
export { getSession, sessionMiddleware } from "./session.js"
export { api } from "./api.js"
export { assertSession, requireSession, type GuardOptions } from "./guard.js"
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./actions.js"
export { defaultBasePath, type SesameConfig } from "./config.js"
export type { AuthenticatedSession, AuthenticatedVariables, SesameVariables } from "./types.js"
export type { AuthConfig, ServerFunctionsOf, Session, User } from "@sesame/core"
export type { ModuleApi } from "@sesame/core/integration"
export { isStorageUnavailable } from "@sesame/core/integration"
export { StorageUnavailable } from "@sesame/core/errors"
