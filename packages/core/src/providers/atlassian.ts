/**
 * Sign in with Atlassian (OAuth 2.0 "3LO", for Jira and Confluence Cloud accounts).
 *
 * @remarks
 * - The authorization request must name the audience `api.atlassian.com` and ask for consent
 *   (`prompt=consent`); the profile needs the `read:me` scope.
 * - Atlassian requires `state` and takes the client secret in the request body.
 *
 * @example
 * ```ts
 * import Atlassian from "@sesame/core/providers/atlassian"
 * // AUTH_ATLASSIAN_ID and AUTH_ATLASSIAN_SECRET
 * const providers = [Atlassian()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET https://api.atlassian.com/me`. */
export interface AtlassianProfile {
  account_id: string
  name: string
  email: string
  email_verified?: boolean
  picture?: string
  nickname?: string
  [key: string]: unknown
}

/** The Atlassian provider. */
export default function Atlassian(options?: OAuthUserConfig<AtlassianProfile>): OAuth2Config<AtlassianProfile> {
  return withOptions<OAuth2Config<AtlassianProfile>, AtlassianProfile>(
    {
      id: "atlassian",
      name: "Atlassian",
      type: "oauth",
      authorization: {
        url: "https://auth.atlassian.com/authorize",
        params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me read:account" },
      },
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: p.account_id, name: p.name, email: p.email, image: p.picture ?? null }),
      style: brandStyle("A", "#0052cc"),
    },
    options,
  )
}
