/**
 * Sign in with authentik (OpenID Connect). Each application's provider is its own issuer.
 *
 * @remarks
 * - The issuer is `https://<host>/application/o/<application slug>/`, with the trailing slash
 *   that authentik's discovery document names.
 *
 * @example
 * ```ts
 * import Authentik from "@sesame/core/providers/authentik"
 * // AUTH_AUTHENTIK_ID, AUTH_AUTHENTIK_SECRET,
 * // AUTH_AUTHENTIK_ISSUER=https://auth.example.com/application/o/my-app/
 * const providers = [Authentik()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface AuthentikProfile extends Profile {
  sub: string
  preferred_username?: string
}

/** The authentik provider; `issuer` from the options or `AUTH_AUTHENTIK_ISSUER`. */
export default function Authentik(options?: OIDCUserConfig<AuthentikProfile>): OIDCConfig<AuthentikProfile> {
  return standardOIDC({ id: "authentik", name: "authentik", mark: ["ak", "#fd4b2d"] }, options)
}
