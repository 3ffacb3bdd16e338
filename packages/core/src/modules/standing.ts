/**
 * Whether a user may act now, for credentials that no sign-in renews (a long-lived API key): the
 * user must still exist, and no module may hold them back (`SesameModule.userStanding`: a
 * suspension). Ending a user's sessions cannot reach such a credential, so its module asks here at
 * every use.
 *
 * Fail closed: a module that throws is logged and the answer is false; a storage outage is the
 * request's 503 (`StorageUnavailable`), never a refusal that a retry would not repeat.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import { storageUnavailable } from "../adapters/unavailable.js"
import type { ResolvedConfig } from "../config/resolve.js"

export async function userInGoodStanding(config: ResolvedConfig, adapter: CheckedAdapter, userId: string): Promise<boolean> {
  if (typeof userId !== "string" || userId.length === 0 || !(await adapter.getUser(userId))) return false
  return !(await heldBack(config, userId))
}

/** Whether a module holds the stored user `userId` back (see the module comment for failures). */
export async function heldBack(config: ResolvedConfig, userId: string): Promise<boolean> {
  const context = config.modules.context
  for (const module of config.modules.standings) {
    try {
      if ((await module.userStanding!(userId, context)) !== true) return true
    } catch (error) {
      const unavailable = storageUnavailable(error)
      if (unavailable) throw unavailable
      config.logger.error(error instanceof Error ? error : new Error(String(error)))
      return true
    }
  }
  return false
}
