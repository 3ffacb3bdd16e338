/**
 * Sign in with Salesforce (OpenID Connect).
 *
 * @remarks
 * - The issuer is `https://login.salesforce.com`; pass `issuer: "https://test.salesforce.com"` for
 *   a sandbox, or your My Domain URL (`https://<domain>.my.salesforce.com`).
 * - The ID token carries `picture` as a URL that needs the access token to load; `thumbnail`-size
 *   images live under `photos` in the userinfo response.
 *
 * @example
 * ```ts
 * import Salesforce from "@sesame/core/providers/salesforce"
 * // AUTH_SALESFORCE_ID and AUTH_SALESFORCE_SECRET
 * const providers = [Salesforce()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface SalesforceProfile extends Profile {
  sub: string
  user_id?: string
  organization_id?: string
}

/** The Salesforce provider. */
export default function Salesforce(options?: OIDCUserConfig<SalesforceProfile>): OIDCConfig<SalesforceProfile> {
  return standardOIDC({ id: "salesforce", name: "Salesforce", issuer: "https://login.salesforce.com", mark: ["SF", "#00a1e0"] }, options)
}
