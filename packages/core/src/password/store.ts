/**
 * Replacing a user's password hash, with what must go with it: the user's other sessions end, so
 * whoever knew the old password is signed out (JWT sessions too, with `session.revocation`).
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { endUserSessions } from "../session/end-all.js"
import type { PasswordProvider } from "./provider.js"
import { storePassword } from "./storage.js"

export interface Replacement {
  user: AdapterUser
  /** Database sessions ended (JWT sessions are not stored, so not counted). */
  sessionsEnded: number
}

/**
 * Stores `hash` as the password of `user` and ends their sessions, but the one `keepSession` names
 * (`SessionStrategy.currentId`), in one transaction where the adapter has them.
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
    const sessionsEnded = await endUserSessions(config, tx, user.id, options.keepSession)
    return { user, sessionsEnded }
  })
}
