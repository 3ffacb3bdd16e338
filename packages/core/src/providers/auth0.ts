/**
 * Sign in with Auth0 (OpenID Connect). Each Auth0 tenant is its own issuer.
 *
 * @remarks
 * - The issuer is the tenant's domain with a trailing slash, `https://<tenant>.<region>.auth0.com/`
 *   (or a custom domain), exactly as the tenant's discovery document names it: discovery fails
 *   when the slash is missing.
 *
 * @example
 * ```ts
 * import Auth0 from "@sesame/core/providers/auth0"
 * // AUTH_AUTH0_ID, AUTH_AUTH0_SECRET, AUTH_AUTH0_ISSUER=https://dev-abc.us.auth0.com/
 * const providers = [Auth0()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

/** Standard claims plus Auth0's `nickname` and `updated_at`. */
export interface Auth0Profile extends Profile {
  sub: string
  nickname?: string
}

/** The Auth0 provider; `issuer` from the options or `AUTH_AUTH0_ISSUER`. */
export default function Auth0(options?: OIDCUserConfig<Auth0Profile>): OIDCConfig<Auth0Profile> {
  return standardOIDC({ id: "auth0", name: "Auth0", mark: ["A0", "#eb5424"] }, options)
}
