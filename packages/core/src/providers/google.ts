/**
 * Sign in with Google (OpenID Connect).
 *
 * @remarks
 * - Google returns a refresh token only when asked: pass
 *   `authorization: { params: { access_type: "offline", prompt: "consent" } }`.
 * - `email_verified` is false for some Google accounts made with another provider's address;
 *   `hd` names the Workspace domain of a Workspace account (check it in the `signIn` callback to
 *   keep a site to one domain: the `hd` authorization parameter alone is only a hint).
 *
 * @example
 * ```ts
 * import Google from "@sesame/core/providers/google"
 * // AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET; callback URL <origin>/auth/callback/google
 * const providers = [Google()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

/** The claims of a Google ID token (https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload). */
export interface GoogleProfile extends Profile {
  sub: string
  email: string
  email_verified: boolean
  name: string
  picture: string
  given_name?: string
  family_name?: string
  /** The Workspace domain. */
  hd?: string
}

/** The Google provider. */
export default function Google(options?: OIDCUserConfig<GoogleProfile>): OIDCConfig<GoogleProfile> {
  return standardOIDC({ id: "google", name: "Google", issuer: "https://accounts.google.com", mark: ["G", "#1a73e8"] }, options)
}
