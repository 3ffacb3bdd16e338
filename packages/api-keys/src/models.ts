/**
 * What the module stores: one row a key, and the per-key rate limit's counters.
 *
 * A key belongs to a user (`userId`, deleted with them) or to an organization (`organizationId`,
 * deleted with it; `createdBy` names the member who made it, cleared when that user is deleted, so
 * an organization's keys outlive the people who made them). Never the key itself: its SHA-256
 * (`keyHash`, see `format.ts`) and its visible start. A key is gone at `expires`; a rotated key's
 * `expires` is moved to the end of the overlap, and `replacedBy` names its successor. Revoking
 * deletes the row.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

const fields = {
  id: { type: "string" },
  userId: { type: "string", optional: true, index: true, references: { model: "user", onDelete: "cascade" } },
  organizationId: { type: "string", optional: true, index: true },
  createdBy: { type: "string", optional: true, references: { model: "user", onDelete: "set null" } },
  /** What the owner calls it ("CI deploys"). */
  name: { type: "string" },
  /** The scopes it grants: a list of the configured names. */
  scopes: { type: "json" },
  /** The prefix and the first random characters: what lists show to tell keys apart. */
  start: { type: "string" },
  /** SHA-256 of the key, hex: what a request's key is looked up by. */
  keyHash: { type: "string", unique: true },
  createdAt: { type: "date" },
  /** When it stops: its lifetime's end, or the end of the overlap once rotated. */
  expires: { type: "date" },
  /** Written at most once a minute (see `verify.ts`). */
  lastUsedAt: { type: "date", optional: true },
  /** Its own rate limit: at most `rateLimitMax` uses per `rateLimitWindow` seconds; none when null. */
  rateLimitMax: { type: "integer", optional: true },
  rateLimitWindow: { type: "integer", optional: true },
  /** Once rotated: the key that replaces it. */
  replacedBy: { type: "string", optional: true },
} as const

/** The keys, as declared when no organization may own one. */
export const apiKeyModel = {
  name: "apiKey",
  table: "sesame_api_keys",
  primaryKey: "id",
  fields,
  expires: "expires",
} as const satisfies ModelDeclaration

/** The keys with organizations: `organizationId` refers to the organizations module's model, and cascades. */
export const organizationApiKeyModel = {
  ...apiKeyModel,
  fields: { ...fields, organizationId: { ...fields.organizationId, references: { model: "organization", onDelete: "cascade" } } },
} as const satisfies ModelDeclaration

export type ApiKeyModel = typeof apiKeyModel | typeof organizationApiKeyModel

/** The uses of a key in one window of its rate limit: one row a key and window, gone when the window ends. */
export const apiKeyUseModel = {
  name: "apiKeyUse",
  table: "sesame_api_key_uses",
  primaryKey: "key",
  fields: {
    /** `<key id>:<window start, ms>`. */
    key: { type: "string" },
    count: { type: "integer" },
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration
