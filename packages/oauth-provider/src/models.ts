/**
 * What the authorization server stores, as declared models on the app's store:
 * - `oauthRecord`: everything oidc-provider keeps (codes, tokens, grants, sessions, interactions,
 *   device codes, registered clients), one row per record, found by id, by user code, by uid, and
 *   deleted by grant (revoking a grant revokes every token it gave), by user and client (a
 *   withdrawn consent), and with its user;
 * - `oauthConsent`: which client a user allowed, and the grant that holds the scopes they allowed,
 *   so that the consent is remembered across the user's sessions and can be revoked;
 * - `oauthSecret`: the server's signing keys and cookie keys, sealed under the app's secret;
 * - `oauthClient`: who owns each client registered through the module's server functions or page
 *   (a user, or an organization), and its name; the client itself (its metadata, its sealed
 *   secret) is an `oauthRecord` as oidc-provider keeps it.
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
    /**
     * The user a grant, token, code or session is for: deleting the user deletes them all, and
     * withdrawing a consent deletes every grant of that user to that client (however many consents
     * were given side by side).
     */
    accountId: { type: "string", optional: true, references: { model: "user" } },
    /** The client a grant, token or code is for. */
    clientId: { type: "string", optional: true, index: true },
    userCode: { type: "string", optional: true, unique: true },
    uid: { type: "string", optional: true, index: true },
    /** When a one-time record (a code, a rotated refresh token) was used: set once, by one request. */
    consumed: { type: "date", optional: true },
    expires: { type: "date" },
  },
  indexes: [{ fields: ["accountId", "clientId"] }],
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

export const clientModel = {
  name: "oauthClient",
  table: "sesame_oauth_clients",
  primaryKey: "clientId",
  fields: {
    clientId: { type: "string" },
    /** The user whose app it is; deleted with them. Null for an organization's app. */
    ownerUserId: { type: "string", optional: true, references: { model: "user" } },
    /**
     * The organization whose app it is, or null. Not a reference: the organizations module is an
     * option, and a reference to its model would need it in every configuration.
     */
    organizationId: { type: "string", optional: true, index: true },
    /** What the management page calls it (the client's `client_name` too). */
    name: { type: "string" },
    createdAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

export const models = [recordModel, consentModel, secretModel, clientModel] as const
