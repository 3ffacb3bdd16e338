/**
 * Sign in with Naver (OAuth 2).
 *
 * @remarks
 * - The profile comes wrapped: `{ resultcode, message, response: { id, name, nickname, email,
 *   profile_image } }`.
 * - Naver requires `state` and takes the client secret in the request body.
 *
 * @example
 * ```ts
 * import Naver from "@sesame/core/providers/naver"
 * // AUTH_NAVER_ID and AUTH_NAVER_SECRET
 * const providers = [Naver()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v1/nid/me`. */
export interface NaverProfile {
  resultcode: string
  message: string
  response: { id: string; name?: string; nickname?: string; email?: string; profile_image?: string }
  [key: string]: unknown
}

/** The Naver provider. */
export default function Naver(options?: OAuthUserConfig<NaverProfile>): OAuth2Config<NaverProfile> {
  return withOptions<OAuth2Config<NaverProfile>, NaverProfile>(
    {
      id: "naver",
      name: "Naver",
      type: "oauth",
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: "https://nid.naver.com/oauth2.0/token",
      userinfo: "https://openapi.naver.com/v1/nid/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ response: p }) => ({ id: p.id, name: p.name ?? p.nickname ?? null, email: p.email ?? null, image: p.profile_image ?? null }),
      style: brandStyle("N", "#03c75a"),
    },
    options,
  )
}
