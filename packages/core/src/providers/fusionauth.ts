/**
 * Sign in with FusionAuth (OpenID Connect). Each FusionAuth tenant can have its own issuer.
 *
 * @remarks
 * - With several tenants, the tenant's discovery document is at
 *   `<issuer>/.well-known/openid-configuration/<tenant id>`: pass `tenantId` and Sesame uses it.
 * - The issuer is the tenant's configured issuer (by default the host's URL).
 *
 * @example
 * ```ts
 * import FusionAuth from "@sesame/core/providers/fusionauth"
 * // AUTH_FUSIONAUTH_ID, AUTH_FUSIONAUTH_SECRET, AUTH_FUSIONAUTH_ISSUER=https://auth.example.com
 * const providers = [FusionAuth()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface FusionAuthProfile extends Profile {
  sub: string
  preferred_username?: string
}

export interface FusionAuthOptions extends OIDCUserConfig<FusionAuthProfile> {
  /** The tenant whose discovery document to read, when the instance has several. Needs `issuer`. */
  tenantId?: string
}

/** The FusionAuth provider; `issuer` from the options or `AUTH_FUSIONAUTH_ISSUER`. */
export default function FusionAuth(options: FusionAuthOptions = {}): OIDCConfig<FusionAuthProfile> {
  const { tenantId, ...rest } = options
  if (tenantId !== undefined && !rest.issuer) throw new TypeError("FusionAuth: `tenantId` needs `issuer` in the options.")
  const wellKnown = tenantId ? `${rest.issuer?.replace(/\/+$/, "")}/.well-known/openid-configuration/${encodeURIComponent(tenantId)}` : undefined
  return standardOIDC({ id: "fusionauth", name: "FusionAuth", mark: ["FA", "#f58320"] }, { ...(wellKnown ? { wellKnown } : {}), ...rest })
}
