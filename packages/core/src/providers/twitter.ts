/**
 * Sign in with X (formerly Twitter; OAuth 2 with PKCE).
 *
 * @remarks
 * - X requires PKCE and `state` on every authorization, also from confidential clients, which
 *   authenticate at the token endpoint with HTTP Basic.
 * - The profile is wrapped: `GET /2/users/me` answers `{ data: { id, name, username,
 *   profile_image_url } }`, and the image only with `user.fields=profile_image_url`.
 * - No email by default: X shares `confirmed_email` only with the `users.email` scope and the
 *   `confirmed_email` user field, for apps allowed to ask for it.
 * - Add `offline.access` to the scope for a refresh token.
 *
 * @example
 * ```ts
 * import Twitter from "@sesame/core/providers/twitter"
 * // AUTH_TWITTER_ID and AUTH_TWITTER_SECRET (the OAuth 2.0 client id and secret)
 * const providers = [Twitter()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /2/users/me` (https://docs.x.com/x-api/users/user-lookup-me). */
export interface TwitterProfile {
  data: { id: string; name: string; username: string; profile_image_url?: string; confirmed_email?: string }
  [key: string]: unknown
}

/** The X (Twitter) provider. */
export default function Twitter(options?: OAuthUserConfig<TwitterProfile>): OAuth2Config<TwitterProfile> {
  return withOptions<OAuth2Config<TwitterProfile>, TwitterProfile>(
    {
      id: "twitter",
      name: "X",
      type: "oauth",
      authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: { url: "https://api.x.com/2/users/me", params: { "user.fields": "profile_image_url" } },
      checks: ["pkce", "state"],
      profile: ({ data }) => ({ id: data.id, name: data.name, email: data.confirmed_email ?? null, image: data.profile_image_url ?? null }),
      style: brandStyle("X", "#000000"),
    },
    options,
  )
}
