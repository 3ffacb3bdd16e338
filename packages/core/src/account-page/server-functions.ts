/**
 * The server functions the account page's endpoints call, with `fromEndpoint`, which hands them
 * the endpoint's context (`http/server-context.ts`). Loaded by `endpoints.ts` on first use, never
 * imported statically: server functions resolve configurations (`http/server-context.ts` →
 * `config/resolve.ts` → `registry.ts`), and the registration list names this feature, so a static
 * import would close a load-order cycle (`test/architecture.test.ts`).
 *
 * @module
 */
export { deleteUser, listAccounts, unlinkAccount } from "../account/management.js"
export { fromEndpoint } from "../http/server-context.js"
export { changePassword, hasPassword, setPassword } from "../password/account.js"
export { listSessions, revokeOtherSessions, revokeSession } from "../session/management.js"
export { updateUserFields } from "../user/update.js"
export { deletePasskey, listPasskeys, renamePasskey } from "../webauthn/management.js"
