/**
 * Sign in with Strava (OAuth 2).
 *
 * @remarks
 * - Strava never shares an email address: users are created without one.
 * - Scopes are comma-separated (`read,activity:read`); the athlete id is a number, stored as a
 *   string.
 * - Strava takes the client secret in the request body.
 *
 * @example
 * ```ts
 * import Strava from "@sesame/core/providers/strava"
 * // AUTH_STRAVA_ID and AUTH_STRAVA_SECRET
 * const providers = [Strava()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /api/v3/athlete`. */
export interface StravaProfile {
  id: number
  username?: string | null
  firstname?: string
  lastname?: string
  profile?: string
  [key: string]: unknown
}

/** The Strava provider. */
export default function Strava(options?: OAuthUserConfig<StravaProfile>): OAuth2Config<StravaProfile> {
  return withOptions<OAuth2Config<StravaProfile>, StravaProfile>(
    {
      id: "strava",
      name: "Strava",
      type: "oauth",
      authorization: { url: "https://www.strava.com/oauth/authorize", params: { scope: "read", approval_prompt: "auto" } },
      token: "https://www.strava.com/oauth/token",
      userinfo: "https://www.strava.com/api/v3/athlete",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({
        id: String(p.id),
        name: [p.firstname, p.lastname].filter(Boolean).join(" ") || p.username || null,
        email: null,
        image: p.profile ?? null,
      }),
      style: brandStyle("S", "#fc4c02"),
    },
    options,
  )
}
