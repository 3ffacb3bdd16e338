/**
 * Sign in with HubSpot (OAuth 2).
 *
 * @remarks
 * - There is no userinfo endpoint: the user's email and ids come from the token's metadata,
 *   `GET /oauth/v1/access-tokens/<token>`, which puts the token in the path.
 * - No name or picture; the account id is the HubSpot `user_id`, the same in every portal
 *   (`hub_id` tells which portal the user installed the app in).
 * - HubSpot takes the client secret in the request body and requires `state`.
 *
 * @example
 * ```ts
 * import HubSpot from "@sesame/core/providers/hubspot"
 * // AUTH_HUBSPOT_ID and AUTH_HUBSPOT_SECRET
 * const providers = [HubSpot()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /oauth/v1/access-tokens/<token>`. */
export interface HubSpotProfile {
  user: string
  user_id: number
  hub_id: number
  hub_domain?: string
  [key: string]: unknown
}

/** The HubSpot provider. */
export default function HubSpot(options?: OAuthUserConfig<HubSpotProfile>): OAuth2Config<HubSpotProfile> {
  const metadata = "https://api.hubapi.com/oauth/v1/access-tokens"
  return withOptions<OAuth2Config<HubSpotProfile>, HubSpotProfile>(
    {
      id: "hubspot",
      name: "HubSpot",
      type: "oauth",
      authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
      token: "https://api.hubapi.com/oauth/v1/token",
      userinfo: {
        url: metadata,
        request: ({ provider, tokens }) =>
          fetchJson<Profile>(`${(endpointUrl(provider.userinfo) ?? metadata).replace(/\/+$/, "")}/${encodeURIComponent(tokens.access_token ?? "")}`, {
            service: "HubSpot",
          }),
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: String(p.user_id), name: null, email: p.user, image: null }),
      style: brandStyle("H", "#ff7a59"),
    },
    options,
  )
}
