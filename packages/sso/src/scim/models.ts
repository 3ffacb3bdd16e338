/**
 * What SCIM provisioning stores: each connection's token (only its SHA-256, so a copy of the
 * table holds nothing that authenticates), the users and groups its identity provider provisioned
 * (the SCIM resource: its own id, the Sesame user it stands for, what the IdP said about it). Every
 * row names its connection and organization, and is deleted with the connection.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

/** A connection's SCIM token: one at most per connection (a new one replaces it). */
export const scimTokenModel = {
  name: "ssoScimToken",
  table: "sesame_sso_scim_tokens",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    connectionId: { type: "string", references: { model: "ssoConnection" }, unique: true },
    organizationId: { type: "string", index: true },
    /** SHA-256 (hex) of the token. */
    tokenHash: { type: "string", unique: true },
    /**
     * The roles the IdP's groups may give through this token: those its maker could have given by
     * invitation when they made it (never `owner`), so that a token is never more than its maker.
     */
    groupRoles: { type: "json" },
    createdAt: { type: "date" },
    /** When an identity provider last used it (written at most every few minutes). */
    lastUsedAt: { type: "date", optional: true },
  },
} as const satisfies ModelDeclaration

/** A user a connection's identity provider provisioned: the SCIM resource `id` and the Sesame user it stands for. */
export const scimUserModel = {
  name: "ssoScimUser",
  table: "sesame_sso_scim_users",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    connectionId: { type: "string", references: { model: "ssoConnection" } },
    organizationId: { type: "string", index: true },
    userId: { type: "string", references: { model: "user" }, index: true },
    /** As the IdP sent it. */
    userName: { type: "string" },
    /** `userName` lower-cased: SCIM compares it without case (RFC 7643 §4.1.1). */
    userNameKey: { type: "string" },
    /** The user's address, lower-cased, at one of the organization's proven domains. */
    email: { type: "string" },
    externalId: { type: "string", optional: true },
    active: { type: "boolean", default: true },
    givenName: { type: "string", optional: true },
    familyName: { type: "string", optional: true },
    displayName: { type: "string", optional: true },
    /**
     * When this resource's deactivation removed the membership and noted the departure: its
     * reactivation takes that note away, and only that one (same instant).
     */
    departedAt: { type: "date", optional: true },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
  indexes: [
    { fields: ["connectionId", "userId"], unique: true },
    { fields: ["connectionId", "userNameKey"], unique: true },
    { fields: ["connectionId", "email"] },
    { fields: ["connectionId", "externalId"] },
  ],
} as const satisfies ModelDeclaration

/** A group a connection's identity provider pushed: its members are SCIM user ids of the same connection. */
export const scimGroupModel = {
  name: "ssoScimGroup",
  table: "sesame_sso_scim_groups",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    connectionId: { type: "string", references: { model: "ssoConnection" } },
    organizationId: { type: "string", index: true },
    displayName: { type: "string" },
    /** `displayName` lower-cased: one group per name and connection. */
    displayNameKey: { type: "string" },
    externalId: { type: "string", optional: true },
    /** The SCIM ids of its members (users of this connection). */
    members: { type: "json" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
  indexes: [{ fields: ["connectionId", "displayNameKey"], unique: true }],
} as const satisfies ModelDeclaration

export const scimModels = [scimTokenModel, scimUserModel, scimGroupModel] as const
