/**
 * What the authorization server stores, as declared models on the app's store:
 * - `oauthRecord`: everything oidc-provider keeps (codes, tokens, grants, sessions, interactions,
 *   device codes, registered clients), one row per record, found by id, by user code, by uid, and
 *   deleted by grant (revoking a grant revokes every token it gave);
 * - `oauthConsent`: which client a user allowed, and the grant that holds the scopes they allowed,
 *   so that the consent is remembered across the user's sessions and can be revoked;
 * - `oauthSecret`: the server's signing keys and cookie keys, sealed under the app's secret.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core"

export const recordModel = {
  name: "oauthRecord",
  table: "sesame_oauth_records",
  primaryKey: "id",
  fields: {
    /** `<oidc-provider model>:<its id>` (`AccessToken:…`): the models share one table. */
    id: { type: "string" },
    /** oidc-provider's record, as it gave it. */
    payload: { type: "json" },
    grantId: { type: "string", optional: true, index: true },
    userCode: { type: "string", optional: true, unique: true },
    uid: { type: "string", optional: true, index: true },
    /** When a one-time record (a code, a rotated refresh token) was used: set once, by one request. */
    consumed: { type: "date", optional: true },
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration

export const consentModel = {
  name: "oauthConsent",
  table: "sesame_oauth_consents",
  primaryKey: ["userId", "clientId"],
  fields: {
    userId: { type: "string", references: { model: "user" } },
    clientId: { type: "string" },
    /** The oidc-provider grant that holds what the user allowed the client. */
    grantId: { type: "string" },
    createdAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

export const secretModel = {
  name: "oauthSecret",
  table: "sesame_oauth_secrets",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    /** Sealed with the module's sealing (`oauth.secrets`). */
    value: { type: "text" },
    createdAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

export const models = [recordModel, consentModel, secretModel] as const
