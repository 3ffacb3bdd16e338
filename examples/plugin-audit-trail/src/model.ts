/**
 * What the audit trail stores: one row per sign-in, removed with its user and forgotten after the
 * plugin's `keepDays` (the model's `expires`, which every store honours and may purge).
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

export const signInRecord = {
  name: "auditSignIn",
  table: "sesame_audit_sign_ins",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    userId: { type: "string", references: { model: "user" } },
    /** The provider's id (`github`, `password`, `passkey`…). */
    provider: { type: "string" },
    /** The provider's kind (`oauth`, `email`, `webauthn`…). */
    kind: { type: "string" },
    /** The sign-in created the user. */
    newUser: { type: "boolean", default: false },
    at: { type: "date" },
    expires: { type: "date" },
  },
  indexes: [{ fields: ["userId", "at"] }],
  expires: "expires",
} as const satisfies ModelDeclaration

/** A sign-in as the plugin reports it. */
export interface SignInEntry {
  provider: string
  kind: string
  newUser: boolean
  at: Date
}
