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

/**
 * A SAML sign-in under way: the AuthnRequest's ID (what the response must answer), the browser it
 * belongs to (a hash of the secret in that browser's cookie) and where it was headed. Used once.
 */
export const samlRequestModel = {
  name: "ssoSamlRequest",
  table: "sesame_sso_saml_requests",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    connectionId: { type: "string" },
    /** SHA-256 (hex) of the secret the browser's cookie holds. */
    browser: { type: "string" },
    callbackUrl: { type: "text" },
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration

/** The assertions already used (a hash of the connection and the assertion's ID), until they expire anyway. */
export const samlAssertionModel = {
  name: "ssoSamlAssertion",
  table: "sesame_sso_saml_assertions",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration
