/**
 * Replacing a user's password hash, with what must go with it: the user's other sessions end, so
 * whoever knew the old password is signed out.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { PasswordProvider } from "./provider.js"
import { storePassword } from "./storage.js"

export interface Replacement {
  user: AdapterUser
  /** Database sessions ended (JWT sessions cannot be ended before they expire). */
  sessionsEnded: number
}

/**
 * Stores `hash` as the password of `user` and ends their database sessions, but the one whose
 * stored token hash is `keepSession`, in one transaction where the adapter has them.
 */
export async function replacePassword(
  config: ResolvedConfig,
  provider: PasswordProvider,
  user: AdapterUser,
  hash: string,
  options: { keepSession?: string },
): Promise<Replacement> {
  return provider.adapter.transaction(async (tx) => {
    await storePassword(tx, { userId: user.id, hash, updatedAt: new Date() })
    const database = config.session.strategy === "database" && tx.has("deleteSessionsByUserId")
    const sessionsEnded = database ? await tx.deleteSessionsByUserId(user.id, options.keepSession) : 0
    // What must not outlive the password (a device remembered for the second factor).
    for (const forget of config.hooks.sessionsEnded) await forget(tx, user.id)
    return { user, sessionsEnded }
  })
}
