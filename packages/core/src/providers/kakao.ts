/**
 * Sign in with Kakao (OAuth 2).
 *
 * @remarks
 * - The profile is nested: `kakao_account.profile.nickname` and `profile_image_url`, and
 *   `kakao_account.email`, each present only when its consent item was granted.
 * - The account id is a number; it is stored as a string.
 * - The client secret is optional at Kakao (and then sent in the body when enabled).
 *
 * @example
 * ```ts
 * import Kakao from "@sesame/core/providers/kakao"
 * // AUTH_KAKAO_ID (the REST API key) and AUTH_KAKAO_SECRET
 * const providers = [Kakao()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v2/user/me`. */
export interface KakaoProfile {
  id: number
  kakao_account?: {
    email?: string
    is_email_verified?: boolean
    profile?: { nickname?: string; profile_image_url?: string; thumbnail_image_url?: string }
  }
  [key: string]: unknown
}

/** The Kakao provider. */
export default function Kakao(options?: OAuthUserConfig<KakaoProfile>): OAuth2Config<KakaoProfile> {
  return withOptions<OAuth2Config<KakaoProfile>, KakaoProfile>(
    {
      id: "kakao",
      name: "Kakao",
      type: "oauth",
      authorization: { url: "https://kauth.kakao.com/oauth/authorize", params: { scope: "profile_nickname profile_image account_email" } },
      token: "https://kauth.kakao.com/oauth/token",
      userinfo: "https://kapi.kakao.com/v2/user/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({
        id: String(p.id),
        name: p.kakao_account?.profile?.nickname ?? null,
        email: p.kakao_account?.email ?? null,
        image: p.kakao_account?.profile?.profile_image_url ?? null,
      }),
      style: brandStyle("K", "#fee500", "#191919"),
    },
    options,
  )
}
