/**
 * Sign in with Instagram ("Instagram API with Instagram Login", for professional accounts).
 *
 * @remarks
 * - The token endpoint wraps its answer in `data: [ … ]` and sends no `token_type`; the response is
 *   unwrapped (and the type set to bearer) before it is checked.
 * - There is no email: Instagram never shares one. The name falls back to the username.
 * - The Basic Display API that personal accounts used ended in December 2024; only professional
 *   (business or creator) accounts can sign in.
 *
 * @example
 * ```ts
 * import Instagram from "@sesame/core/providers/instagram"
 * // AUTH_INSTAGRAM_ID (the Instagram app id) and AUTH_INSTAGRAM_SECRET
 * const providers = [Instagram()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { rewriteTokenBody } from "./lib/conform.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /me?fields=user_id,username,name,profile_picture_url`. */
export interface InstagramProfile {
  user_id: string
  username: string
  name?: string
  profile_picture_url?: string
  [key: string]: unknown
}

/** The first entry of a `{ data: [ … ] }` token response, as a standard token response. */
export const unwrapInstagramToken = rewriteTokenBody((body) => {
  const entry: unknown = Array.isArray(body.data) ? body.data[0] : body
  return entry && typeof entry === "object" ? { token_type: "bearer", ...entry } : undefined
})

/** The Instagram provider. */
export default function Instagram(options?: OAuthUserConfig<InstagramProfile>): OAuth2Config<InstagramProfile> {
  return withOptions<OAuth2Config<InstagramProfile>, InstagramProfile>(
    {
      id: "instagram",
      name: "Instagram",
      type: "oauth",
      authorization: { url: "https://www.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
      token: { url: "https://api.instagram.com/oauth/access_token", conform: unwrapInstagramToken },
      userinfo: { url: "https://graph.instagram.com/me", params: { fields: "user_id,username,name,profile_picture_url" } },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: String(p.user_id), name: p.name || p.username, email: null, image: p.profile_picture_url ?? null }),
      style: brandStyle("Ig", "#c13584"),
    },
    options,
  )
}
