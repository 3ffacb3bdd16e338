/**
 * What the module stores: one row a suspended user. It refers to the user, so a user's deletion
 * takes their suspension along; a suspension that has run out (`until` passed) stays as a record
 * until it is lifted or replaced, and no longer refuses anything.
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
