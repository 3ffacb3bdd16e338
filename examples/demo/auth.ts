/**
 * The demo's Sesame configuration: every sign-in method (lib/providers.ts), database sessions in
 * SQLite (lib/store.ts), Sesame's built-in pages under /api/auth (sign-in, the password
 * provider's sign-up, forgotten-password and reset pages, and the two-factor pages).
 *
 * Two-factor sign-in needs no switch: it is on because the SQLite adapter stores second factors.
 * Users turn it on themselves, on the settings page the home page links to.
 *
 * API tokens are on (`apiTokens`): a signed-in user gets a short-lived JWT for the demo's API
 * (lib/api.ts), signed with a key that Sesame generates and keeps in the SQLite file, and
 * published at /api/auth/jwks.
 *
 * Plugins (`plugins`, lib/store.ts): `@sesame/plugin-audit-trail` records each sign-in, and the
 * home page lists the user's recent ones through its server function (`api.recentSignIns`);
 * `@sesame/organizations` adds organizations, invitations by email and the active organization
 * (`session.organization`), used by the pages under app/organizations (`organizationsApi`), with
 * verified domains; `@sesame/sso` lets an organization sign its people in through its own identity
 * provider (app/organizations/sso, and the plugin's built-in page for connections);
 * `@sesame/api-keys` gives users and organizations long-lived keys for the notes API
 * (app/api/notes), made on the account page and on an organization's page.
 *
 * User fields (`user.fields`, lib/store.ts): every user has a `role` (the app's to set) and a
 * `language` they choose on the home page (`updateUserFields`); `session.user` carries both.
 */
import type { AuthConfig, ServerFunctionsOf, UserFieldsOf } from "@sesame/core"
import Sesame from "@sesame/next"
import type { ActiveOrganization } from "@sesame/organizations"
import { apiAudience } from "./lib/api"
import { providers } from "./lib/providers"
import { adapter, adminPlugin, apiKeysPlugin, auditPlugin, auditTrailPlugin, orgs, plugins, ssoPlugin, userFields } from "./lib/store"

// `session.user.role` and `session.user.language`, typed; and the active organization.
declare module "@sesame/core" {
  interface User extends Partial<UserFieldsOf<typeof userFields>> {}
  interface Session {
    organization?: ActiveOrganization
  }
}

export const basePath = "/api/auth"

const config: AuthConfig = {
  basePath,
  adapter,
  providers,
  session: { strategy: "database" },
  experimental: { enableWebAuthn: true },
  // "Remember this device" for 30 days, so that the demo shows the checkbox on the challenge page.
  twoFactor: { rememberDevice: 30 * 24 * 60 * 60 },
  theme: { brandColor: "#0b5e5a" },
  apiTokens: { audience: apiAudience },
  plugins,
  // A role and the language the user picks on the home page: stored in the users table, in `session.user`.
  user: { fields: userFields },
  debug: process.env.SESAME_DEBUG === "1",
}

export const {
  handlers,
  auth,
  signIn,
  signOut,
  // The signed-in user's accounts, sessions, passkeys, password and second factor, for the home page and its actions.
  listAccounts,
  unlinkAccount,
  deleteUser,
  listSessions,
  revokeSession,
  listPasskeys,
  deletePasskey,
  hasPassword,
  changePassword,
  setPassword,
  twoFactorStatus,
  requireRecentSignIn,
  updateUserFields,
  // An API token for the signed-in user, for the home page's call to the API.
  getApiToken,
  api,
} = Sesame(config)

/** The audit trail's server functions, typed. */
export const auditTrailApi = api as ServerFunctionsOf<typeof auditTrailPlugin>
/** The security log's server functions, typed (the home page's "Security log"). */
export const auditApi = api as ServerFunctionsOf<typeof auditPlugin>
/** The admin tools' server functions, typed (the home page's link to them). */
export const adminApi = api as ServerFunctionsOf<typeof adminPlugin>
/** The organizations' server functions, typed (app/organizations). */
export const organizationsApi = api as ServerFunctionsOf<typeof orgs>
/** The API keys' server functions, typed (app/api/notes checks a request's key with `verifyApiKey`). */
export const apiKeysApi = api as ServerFunctionsOf<typeof apiKeysPlugin>
/** The SSO plugin's server functions, typed (app/organizations/sso). */
export const ssoApi = api as ServerFunctionsOf<typeof ssoPlugin>
