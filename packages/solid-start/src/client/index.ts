/**
 * `@sesame/solid-start/client`: Sesame in the browser, for SolidStart apps.
 *
 * - `signIn(provider, options?, authorizationParams?)` and `signOut(options?)`;
 * - `createSession(options?)`: the session as a reactive value that follows focus and other tabs;
 * - `isStorageUnavailable(error)`, `StorageUnavailable`: what they reject with (or, for
 *   `createSession`, keep as `error`) when the server answers `503`: its storage is down for a
 *   moment, which is never taken for "signed out".
 *
 * Each takes the `prefix` given to `SolidAuth` (default `/api/auth`). Nothing here imports server
 * code, so it is safe in any component.
 *
 * @module
 */
export { signIn, signOut, type AuthorizationParams, type SignInOptions, type SignInResult, type SignOutOptions } from "./actions.js"
export { createSession, type CreateSessionOptions, type SessionResource, type SessionStatus } from "./session.js"
export type { SessionChange } from "./broadcast.js"
export { isStorageUnavailable, StorageUnavailable } from "@sesame/core/client"
export type { Session, User } from "@sesame/core"
