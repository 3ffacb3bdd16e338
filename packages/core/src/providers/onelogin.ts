/**
 * Sign in with OneLogin (OpenID Connect). Each OneLogin account is its own issuer.
 *
 * @remarks
 * - The issuer is `https://<subdomain>.onelogin.com/oidc/2` (version 2 of OneLogin's OIDC API).
 *
 * @example
 * ```ts
 * import OneLogin from "@sesame/core/providers/onelogin"
 * // AUTH_ONELOGIN_ID, AUTH_ONELOGIN_SECRET, AUTH_ONELOGIN_ISSUER=https://acme.onelogin.com/oidc/2
 * const providers = [OneLogin()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface OneLoginProfile extends Profile {
  sub: string
  preferred_username?: string
}

/** The OneLogin provider; `issuer` from the options or `AUTH_ONELOGIN_ISSUER`. */
export default function OneLogin(options?: OIDCUserConfig<OneLoginProfile>): OIDCConfig<OneLoginProfile> {
  return standardOIDC({ id: "onelogin", name: "OneLogin", mark: ["1", "#1c1f2a"] }, options)
}
