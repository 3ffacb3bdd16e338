/**
 * Sign in with ZITADEL (OpenID Connect). Each instance is its own issuer.
 *
 * @remarks
 * - The issuer is the instance's domain, `https://<instance>.zitadel.cloud` or your own.
 * - Add the `offline_access` scope for refresh tokens.
 *
 * @example
 * ```ts
 * import Zitadel from "@sesame/core/providers/zitadel"
 * // AUTH_ZITADEL_ID, AUTH_ZITADEL_SECRET, AUTH_ZITADEL_ISSUER=https://acme-abc123.zitadel.cloud
 * const providers = [Zitadel()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface ZitadelProfile extends Profile {
  sub: string
}

/** The ZITADEL provider; `issuer` from the options or `AUTH_ZITADEL_ISSUER`. */
export default function Zitadel(options?: OIDCUserConfig<ZitadelProfile>): OIDCConfig<ZitadelProfile> {
  return standardOIDC({ id: "zitadel", name: "ZITADEL", mark: ["Z", "#4e5ad9"] }, options)
}
