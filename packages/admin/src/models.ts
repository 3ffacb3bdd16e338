/**
 * What the module stores: one row a suspended user. It refers to the user, so a user's deletion
 * takes their suspension along; a suspension that has run out (`until` passed) stays as a record
 * until it is lifted or replaced, and no longer refuses anything. And one row an impersonation,
 * while it may still be going on.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

export const banModel = {
  name: "adminBan",
  table: "sesame_admin_bans",
  primaryKey: ["userId"],
  fields: {
    userId: { type: "string", references: { model: "user", onDelete: "cascade" } },
    /** Why, in the admin's words: shown to admins, never to the suspended user. */
    reason: { type: "text", optional: true },
    /** When the suspension ends; none: until it is lifted. */
    until: { type: "date", optional: true },
    /** The admin who suspended the user. */
    bannedBy: { type: "string" },
    at: { type: "date" },
  },
} as const satisfies ModelDeclaration

/**
 * One row an impersonation (`impersonation.ts`), which its session's mark names: the session holds
 * only while the row does, so stopping ends every copy of the session too. It refers to both users,
 * so either's deletion takes it along (and ends the impersonation), and it is gone at `until`, when
 * its session has ended anyway.
 */
export const impersonationModel = {
  name: "adminImpersonation",
  table: "sesame_admin_impersonations",
  primaryKey: ["id"],
  fields: {
    id: { type: "string" },
    /** The admin who sees the app as the user. */
    adminId: { type: "string", references: { model: "user", onDelete: "cascade" } },
    userId: { type: "string", references: { model: "user", onDelete: "cascade" } },
    /** When it ends by itself. */
    until: { type: "date" },
    /** When the admin stopped it; none while it lasts. */
    endedAt: { type: "date", optional: true },
  },
  expires: "until",
} as const satisfies ModelDeclaration
