/**
 * Deleting a stored user, whoever asks (the user's own `deleteUser`, a plugin's `users.delete`):
 * the one place for what goes with it and in which order.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { emit } from "../events.js"
import { endJwtSessions } from "../session/revocation.js"

/**
 * Deletes `user` with everything stored for them (the adapter's `deleteUser`: accounts, sessions,
 * passkeys, their rows in the store) and sends `deleteUser`. The JWT sessions' cut
 * (`session.revocation`) is written first and outlives the user's row: their tokens stay refused
 * until they would have expired, even when the deletion fails after it (a retry finds no user to
 * cut for).
 */
export async function deleteStoredUser(config: ResolvedConfig, adapter: CheckedAdapter, user: AdapterUser): Promise<void> {
  await endJwtSessions(config, user.id)
  await adapter.deleteUser(user.id)
  await emit(config, "deleteUser", { user })
}
