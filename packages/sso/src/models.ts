/**
 * What the module stores: each organization's connections to its identity providers. A
 * connection belongs to one organization (deleted with it); its provider id is `sso-<id>`.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

export const connectionModel = {
  name: "ssoConnection",
  table: "sesame_sso_connections",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" }, index: true },
    /** `oidc` or `saml`. */
    protocol: { type: "string" },
    /** What the sign-in and the admin pages call it ("Acme Okta"). */
    name: { type: "string" },
    enabled: { type: "boolean", default: true },
    /** The roles a user provisioned by this connection gets in the organization. */
    roles: { type: "json" },
    /** The protocol's settings: for OIDC the issuer, client id and secret; for SAML the IdP's entity id, sign-in URL and certificates. */
    settings: { type: "json" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
} as const satisfies ModelDeclaration
