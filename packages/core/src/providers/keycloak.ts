/**
 * Sign in with Keycloak (OpenID Connect). Each realm is its own issuer.
 *
 * @remarks
 * - The issuer is `https://<host>/realms/<realm>` (Keycloak 17 and later; older servers add
 *   `/auth` before `/realms`).
 *
 * @example
 * ```ts
 * import Keycloak from "@sesame/core/providers/keycloak"
 * // AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET, AUTH_KEYCLOAK_ISSUER=https://sso.example.com/realms/acme
 * const providers = [Keycloak()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface KeycloakProfile extends Profile {
  sub: string
  preferred_username?: string
}

/** The Keycloak provider; `issuer` from the options or `AUTH_KEYCLOAK_ISSUER`. */
export default function Keycloak(options?: OIDCUserConfig<KeycloakProfile>): OIDCConfig<KeycloakProfile> {
  return standardOIDC({ id: "keycloak", name: "Keycloak", mark: ["K", "#33373d"] }, options)
}
