/**
 * Sign in with Kinde (OpenID Connect). Each Kinde business is its own issuer.
 *
 * @remarks
 * - The issuer is the business's domain, `https://<business>.kinde.com`, or a custom domain.
 * - Kinde puts the picture and names in the ID token only with the `profile` scope (asked for by
 *   default).
 *
 * @example
 * ```ts
 * import Kinde from "@sesame/core/providers/kinde"
 * // AUTH_KINDE_ID, AUTH_KINDE_SECRET, AUTH_KINDE_ISSUER=https://acme.kinde.com
 * const providers = [Kinde()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface KindeProfile extends Profile {
  sub: string
}

/** The Kinde provider; `issuer` from the options or `AUTH_KINDE_ISSUER`. */
export default function Kinde(options?: OIDCUserConfig<KindeProfile>): OIDCConfig<KindeProfile> {
  return standardOIDC({ id: "kinde", name: "Kinde", mark: ["K", "#1a1a1a"] }, options)
}
