/**
 * Sign in with Mastodon (OAuth 2, on one Mastodon server).
 *
 * @remarks
 * - Every server is its own authorization server: the `issuer` is the server's URL
 *   (`https://mastodon.social`), and the endpoints are paths under it, so the server can come from
 *   `AUTH_MASTODON_ISSUER`.
 * - The client is registered per server (`POST /api/v1/apps`); one provider signs in users of that
 *   one server. Give each server its own provider (`id: "mastodon-social"`…) to offer several.
 * - There is no email; the account id is the server's account id, so it means something only
 *   together with the server.
 *
 * @example
 * ```ts
 * import Mastodon from "@sesame/core/providers/mastodon"
 * // AUTH_MASTODON_ID, AUTH_MASTODON_SECRET, AUTH_MASTODON_ISSUER=https://mastodon.social
 * const providers = [Mastodon()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /api/v1/accounts/verify_credentials`. */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  avatar: string
  url: string
  [key: string]: unknown
}

/** The Mastodon provider; the server from `issuer` or `AUTH_MASTODON_ISSUER`. */
export default function Mastodon(options?: OAuthUserConfig<MastodonProfile>): OAuth2Config<MastodonProfile> {
  return withOptions<OAuth2Config<MastodonProfile>, MastodonProfile>(
    {
      id: "mastodon",
      name: "Mastodon",
      type: "oauth",
      authorization: { url: "/oauth/authorize", params: { scope: "read:accounts" } },
      token: "/oauth/token",
      userinfo: "/api/v1/accounts/verify_credentials",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: p.id, name: p.display_name || p.username, email: null, image: p.avatar }),
      style: brandStyle("M", "#6364ff"),
    },
    options,
  )
}
