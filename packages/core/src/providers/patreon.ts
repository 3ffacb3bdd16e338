/**
 * Sign in with Patreon (OAuth 2, API v2).
 *
 * @remarks
 * - The profile is a JSON:API document: `{ data: { id, attributes: { … } } }`, and holds only the
 *   fields asked for with `fields[user]`.
 * - `email` needs the `identity[email]` scope.
 *
 * @example
 * ```ts
 * import Patreon from "@sesame/core/providers/patreon"
 * // AUTH_PATREON_ID and AUTH_PATREON_SECRET
 * const providers = [Patreon()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /api/oauth2/v2/identity`. */
export interface PatreonProfile {
  data: { id: string; attributes: { full_name?: string; email?: string; image_url?: string; is_email_verified?: boolean } }
  [key: string]: unknown
}

/** The Patreon provider. */
export default function Patreon(options?: OAuthUserConfig<PatreonProfile>): OAuth2Config<PatreonProfile> {
  return withOptions<OAuth2Config<PatreonProfile>, PatreonProfile>(
    {
      id: "patreon",
      name: "Patreon",
      type: "oauth",
      authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
      token: "https://www.patreon.com/api/oauth2/token",
      userinfo: {
        url: "https://www.patreon.com/api/oauth2/v2/identity",
        params: { "fields[user]": "full_name,email,image_url,is_email_verified" },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ data }) => ({ id: data.id, name: data.attributes.full_name ?? null, email: data.attributes.email ?? null, image: data.attributes.image_url ?? null }),
      style: brandStyle("P", "#000000"),
    },
    options,
  )
}
