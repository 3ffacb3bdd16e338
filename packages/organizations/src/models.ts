/**
 * What the module stores, as declared models (the core's generic store keeps them on every
 * adapter; `sesame migrate` makes the tables). A member's roles are a JSON array of role names, so
 * that one member may hold several; an invitation keeps only the SHA-256 of its token, so a copy of
 * the table holds no link that works, and expires by itself.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

export const organizationModel = {
  name: "organization",
  table: "sesame_organizations",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    name: { type: "string" },
    slug: { type: "string", unique: true },
    logo: { type: "text", optional: true },
    metadata: { type: "json", optional: true },
    createdAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

export const memberModel = {
  name: "organizationMember",
  table: "sesame_organization_members",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" } },
    userId: { type: "string", references: { model: "user" }, index: true },
    roles: { type: "json" },
    /** Counts the changes of the row: each write names the version it read, so a write on a stale read changes nothing. */
    version: { type: "integer", default: 0 },
    createdAt: { type: "date" },
  },
  indexes: [{ fields: ["organizationId", "userId"], unique: true }],
} as const satisfies ModelDeclaration

export const invitationModel = {
  name: "organizationInvitation",
  table: "sesame_organization_invitations",
  primaryKey: "id",
  expires: "expires",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" } },
    /** The invited address, trimmed and lowercased. */
    email: { type: "string", index: true },
    roles: { type: "json" },
    /** SHA-256 of the token the link carries, hex. */
    tokenHash: { type: "string", unique: true },
    invitedBy: { type: "string", optional: true, references: { model: "user", onDelete: "set null" } },
    /** How many times it was sent: the first time and each resend. */
    sends: { type: "integer", default: 1 },
    createdAt: { type: "date" },
    expires: { type: "date" },
  },
  // One pending invitation per address and organization, even when two are made at once.
  indexes: [{ fields: ["organizationId", "email"], unique: true }],
} as const satisfies ModelDeclaration

/**
 * Who left an organization or was removed from it: a verified domain's auto-join does not bring
 * them back at their next sign-in (an invitation does, and clears it).
 */
export const departureModel = {
  name: "organizationDeparture",
  table: "sesame_organization_departures",
  primaryKey: ["organizationId", "userId"],
  fields: {
    organizationId: { type: "string", references: { model: "organization" } },
    userId: { type: "string", references: { model: "user" }, index: true },
    at: { type: "date" },
  },
} as const satisfies ModelDeclaration

export const organizationModels = [organizationModel, memberModel, invitationModel, departureModel] as const
