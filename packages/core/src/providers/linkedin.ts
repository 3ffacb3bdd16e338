/**
 * Sign in with LinkedIn ("Sign In with LinkedIn using OpenID Connect").
 *
 * @remarks
 * - LinkedIn's issuer is `https://www.linkedin.com/oauth`, and it authenticates clients with the
 *   secret in the request body (`client_secret_post`).
 * - PKCE is reserved to LinkedIn's native-app flow: web apps use `state` instead.
 *
 * @example
 * ```ts
 * import LinkedIn from "@sesame/core/providers/linkedin"
 * // AUTH_LINKEDIN_ID and AUTH_LINKEDIN_SECRET
 * const providers = [LinkedIn()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface LinkedInProfile extends Profile {
  sub: string
  name: string
  email?: string
  picture?: string
  locale?: string | null
}

/** The LinkedIn provider. */
export default function LinkedIn(options?: OIDCUserConfig<LinkedInProfile>): OIDCConfig<LinkedInProfile> {
  return standardOIDC<LinkedInProfile>(
    { id: "linkedin", name: "LinkedIn", issuer: "https://www.linkedin.com/oauth", mark: ["in", "#0a66c2"] },
    options,
    { checks: ["state"], client: { token_endpoint_auth_method: "client_secret_post" } },
  )
}
