/**
 * What the audit log stores: one row per security event, and one per webhook delivery (the
 * outbox). Neither refers to the user with a reference: a reference cascades, and the log must
 * outlive a deleted user (its `user.deleted` row above all). Both vanish after their `expires`
 * (the store's time to live), which is how retention is kept without a job.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

/**
 * One security event. `id` sorts as the time it was recorded (milliseconds, then random), so that
 * events of one millisecond still have one order, which the cursor of a page names.
 */
export const auditEventModel = {
  name: "auditEvent",
  table: "sesame_audit_events",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    at: { type: "date" },
    type: { type: "string" },
    /** Who acted: a user's id, a module's (`scim:<connection id>`), or null. Not a reference: see the module comment. */
    actorId: { type: "string", optional: true },
    /** Whose account it is about. Not a reference: see the module comment. */
    userId: { type: "string", optional: true },
    ip: { type: "string", optional: true },
    /** Up to 256 characters: `text`, since `string` is 255 on MySQL. */
    userAgent: { type: "text", optional: true },
    provider: { type: "string", optional: true },
    reason: { type: "string", optional: true },
    /** Names, counts and flags (the event's `details`), as JSON text. */
    details: { type: "json", optional: true },
    expires: { type: "date" },
  },
  indexes: [{ fields: ["userId", "at"] }, { fields: ["actorId", "at"] }, { fields: ["at"] }],
  expires: "expires",
} as const satisfies ModelDeclaration

/**
 * One webhook delivery, kept until it is delivered or has used up its attempts, so that a retry
 * survives a restart: `pending` (due at `nextAttemptAt`), `delivered`, or `failed`. `body` is the
 * exact JSON that is signed and sent, every attempt alike.
 */
export const auditDeliveryModel = {
  name: "auditDelivery",
  table: "sesame_audit_deliveries",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    eventId: { type: "string" },
    body: { type: "text" },
    status: { type: "string" },
    attempts: { type: "integer", default: 0 },
    nextAttemptAt: { type: "date" },
    /** Why the last attempt failed: a status code or the network's error name, never the answer's body. */
    lastError: { type: "string", optional: true },
    createdAt: { type: "date" },
    expires: { type: "date" },
  },
  indexes: [{ fields: ["status", "nextAttemptAt"] }],
  expires: "expires",
} as const satisfies ModelDeclaration
