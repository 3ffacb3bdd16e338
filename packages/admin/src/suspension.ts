/**
 * What a stored suspension is and whether it is in force: read by every check that must know (a
 * sign-in, an admin's own action, an impersonation at each use), apart from the actions that write
 * it (`bans.ts`), which ask who the caller is first.
 *
 * @module
 */
import type { Store, StoredRow } from "@sesame/core"
import { banModel } from "./models.js"

/** A suspension, as admins see it. */
export interface BanInfo {
  userId: string
  reason: string | null
  /** When it ends; null: until it is lifted. */
  until: Date | null
  bannedBy: string
  at: Date
}

/** A stored suspension as admins see it. */
export const banInfo = (row: StoredRow): BanInfo => ({
  userId: row.userId as string,
  reason: (row.reason as string | null) ?? null,
  until: (row.until as Date | null) ?? null,
  bannedBy: row.bannedBy as string,
  at: row.at as Date,
})

/** Whether `ban` refuses sign-ins at `now`. */
export const inForce = (ban: BanInfo, now = Date.now()): boolean => ban.until === null || ban.until.getTime() > now

/** The suspension of `userId` (in force or run out), or null: for callers that checked the admin already. */
export async function banRow(store: Store, userId: string): Promise<BanInfo | null> {
  const row = await store.findOne(banModel, { userId })
  return row ? banInfo(row) : null
}

/** Whether `userId` is suspended now. */
export async function suspended(store: Store, userId: string): Promise<boolean> {
  const ban = await banRow(store, userId)
  return ban !== null && inForce(ban)
}
