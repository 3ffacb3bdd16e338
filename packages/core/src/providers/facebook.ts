/**
 * Sign in with Facebook (plain OAuth 2 on the Graph API).
 *
 * @remarks
 * - The Graph API returns only the fields asked for (`fields=id,name,email,picture`), and the
 *   picture as an object, `picture.data.url` (a silhouette when the user has none).
 * - `email` is absent for accounts made with a phone number, or when the user declines it.
 * - The endpoints are unversioned, so they follow your app's Graph API version.
 *
 * @example
 * ```ts
 * import Facebook from "@sesame/core/providers/facebook"
 * // AUTH_FACEBOOK_ID (the app id) and AUTH_FACEBOOK_SECRET
 * const providers = [Facebook()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /me?fields=id,name,email,picture`. */
export interface FacebookProfile {
  id: string
  name: string
  email?: string
  picture?: { data: { url: string; width?: number; height?: number; is_silhouette?: boolean } }
  [key: string]: unknown
}

/** The Facebook provider. */
export default function Facebook(options?: OAuthUserConfig<FacebookProfile>): OAuth2Config<FacebookProfile> {
  return withOptions<OAuth2Config<FacebookProfile>, FacebookProfile>(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email public_profile" } },
      token: "https://graph.facebook.com/oauth/access_token",
      userinfo: { url: "https://graph.facebook.com/me", params: { fields: "id,name,email,picture.width(200).height(200)" } },
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.id, name: p.name, email: p.email ?? null, image: p.picture?.data.url ?? null }),
      style: brandStyle("f", "#1877f2"),
    },
    options,
  )
}
