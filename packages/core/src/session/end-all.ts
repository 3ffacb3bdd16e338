/**
 * Ending every session of a user but one: the one place for what goes with it, whoever asks (a
 * password reset or change, a new address proven, "sign out everywhere else", a plugin's ban).
 * Database sessions are deleted (but `keep`, the stored hash of the one that stays); JWT sessions
 * end at their next read with `session.revocation` (but `keep`, the token's `sid`); and what must
 * not outlive them goes too (a device remembered for the second factor, `sessionsEnded`).
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { endJwtSessions } from "./revocation.js"

/**
 * Ends the sessions of `userId` but the one `keep` names (`SessionStrategy.currentId`), through
 * `adapter` (a transaction's, so that the change that causes it and the ending are stored
 * together). Returns how many database sessions ended: JWT sessions are not stored, so not counted.
 */
export async function endUserSessions(config: ResolvedConfig, adapter: CheckedAdapter, userId: string, keep?: string): Promise<number> {
  const ended = adapter.has("deleteSessionsByUserId") ? await adapter.deleteSessionsByUserId(userId, keep) : 0
  await endJwtSessions(config, userId, { keep, store: adapter.store })
  for (const forget of config.hooks.sessionsEnded) await forget(adapter, userId)
  return ended
}
