/**
 * Sign in with Box (OAuth 2).
 *
 * @remarks
 * - Box takes the client secret in the request body (`client_secret_post`).
 * - The email is the account's `login`.
 *
 * @example
 * ```ts
 * import Box from "@sesame/core/providers/box"
 * // AUTH_BOX_ID and AUTH_BOX_SECRET
 * const providers = [Box()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /2.0/users/me`. */
export interface BoxProfile {
  id: string
  name: string
  login: string
  avatar_url?: string
  [key: string]: unknown
}

/** The Box provider. */
export default function Box(options?: OAuthUserConfig<BoxProfile>): OAuth2Config<BoxProfile> {
  return withOptions<OAuth2Config<BoxProfile>, BoxProfile>(
    {
      id: "box",
      name: "Box",
      type: "oauth",
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: "https://api.box.com/oauth2/token",
      userinfo: "https://api.box.com/2.0/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: p.id, name: p.name, email: p.login, image: p.avatar_url ?? null }),
      style: brandStyle("b", "#0061d5"),
    },
    options,
  )
}
