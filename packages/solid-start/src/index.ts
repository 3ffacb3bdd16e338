/**
 * `@sesame/solid-start`: Sesame for SolidStart 1.x and 2.x, on the server.
 *
 * - `SolidAuth(config)`: `{ GET, POST }` for `src/routes/api/auth/[...sesame].ts`;
 * - `getSession(request, options)`: the session or `null`;
 * - `requireSession(request, options, redirectTo? | { redirectTo?, allow? })`: the guard for server
 *   functions and queries (`allow`: the app's check of the signed-in session, a `403` when it
 *   refuses);
 * - `authMiddleware(options, { protect, redirectTo? })`: the guard for `createMiddleware`;
 * - `StorageUnavailable`, `isStorageUnavailable(error)`: what `getSession` and `requireSession`
 *   throw while the storage cannot be reached (never `null`, never the sign-in redirect), and the
 *   middleware answers with a `503`;
 * - `listAccounts(request, options)`, `unlinkAccount`, `deleteUser`, `listSessions`,
 *   `revokeSession`, `revokeOtherSessions`, `listPasskeys`, `renamePasskey`, `deletePasskey`,
 *   `hasPassword`, `changePassword`, `setPassword`, `requestEmailChange`, `updateUserFields`: the
 *   signed-in user's accounts, sessions, passkeys, password, address and own fields;
 * - `api(request, options)`: the plugins' server functions for the request (`api(…).<name>(…)`).
 *
 * The browser side is `@sesame/solid-start/client`.
 *
 * @module
 */
export { SolidAuth, type SolidAuthHandler, type SolidAuthHandlers } from "./handlers.js"
export { getSession, requireSession, type AuthenticatedSession, type RequireSessionOptions } from "./session.js"
export { authMiddleware, type AuthMiddleware, type ProtectOptions } from "./middleware.js"
export {
  api,
  changePassword,
  deleteUser,
  deletePasskey,
  hasPassword,
  listAccounts,
  listPasskeys,
  listSessions,
  renamePasskey,
  requestEmailChange,
  requireRecentSignIn,
  revokeOtherSessions,
  revokeSession,
  setPassword,
  twoFactorStatus,
  unlinkAccount,
  updateUserFields,
} from "./server-functions.js"
export type { SolidAuthConfig, SolidAuthOptions } from "./config.js"
export type { RequestEventLike } from "./event.js"
export type { ModuleApi } from "@sesame/core/integration"
export { defaultPrefix } from "./prefix.js"
export { StorageUnavailable } from "@sesame/core/errors"
export { isStorageUnavailable } from "@sesame/core/integration"
export type {
  AccountInfo,
  AccountUnlinking,
  DeletePasskeyOptions,
  RecentSignIn,
  RecentSignInOptions,
  TwoFactorStatus,
  DeleteUserOptions,
  PasskeyDeletion,
  PasskeyInfo,
  PasswordChanging,
  PasswordSetting,
  Session,
  ServerFunctionsOf,
  SessionInfo,
  User,
  UserDeletion,
  SetPasswordOptions,
  WaysInOptions,
} from "@sesame/core"
