/**
 * Sign in with Okta (OpenID Connect). Each Okta org, and each authorization server in it, is its
 * own issuer.
 *
 * @remarks
 * - The issuer is `https://<org>.okta.com` for the org authorization server, or
 *   `https://<org>.okta.com/oauth2/<server id>` (`/oauth2/default`) for a custom one; the two sign
 *   different tokens, so use the one your app is registered with.
 *
 * @example
 * ```ts
 * import Okta from "@sesame/core/providers/okta"
 * // AUTH_OKTA_ID, AUTH_OKTA_SECRET, AUTH_OKTA_ISSUER=https://example.okta.com/oauth2/default
 * const providers = [Okta()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface OktaProfile extends Profile {
  sub: string
  preferred_username?: string
}

/** The Okta provider; `issuer` from the options or `AUTH_OKTA_ISSUER`. */
export default function Okta(options?: OIDCUserConfig<OktaProfile>): OIDCConfig<OktaProfile> {
  return standardOIDC({ id: "okta", name: "Okta", mark: ["O", "#007dc1"] }, options)
}
