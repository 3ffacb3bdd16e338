/**
 * Sign in with TikTok (Login Kit for Web, OAuth 2 v2).
 *
 * @remarks
 * - TikTok calls the client id `client_key`, in the authorization URL and at the token endpoint,
 *   which also wants the secret in the body: the provider makes the token request itself.
 * - Scopes are comma-separated; the profile is wrapped (`{ data: { user: … }, error }`) and holds
 *   only the `fields` asked for. There is no email.
 * - The account id is `open_id`, which differs per app of the same developer (`union_id` does not).
 *
 * @example
 * ```ts
 * import TikTok from "@sesame/core/providers/tiktok"
 * // AUTH_TIKTOK_ID (the client key) and AUTH_TIKTOK_SECRET
 * const providers = [TikTok()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, OAuthConfig, TokenSet } from "../oauth/types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v2/user/info/`. */
export interface TikTokProfile {
  data: { user: { open_id: string; union_id?: string; display_name?: string; avatar_url?: string } }
  error?: { code: string; message?: string }
  [key: string]: unknown
}

async function tikTokToken(provider: OAuthConfig, params: { code: string; redirect_uri: string; code_verifier?: string }) {
  const body = new URLSearchParams({
    client_key: provider.clientId ?? "",
    client_secret: provider.clientSecret ?? "",
    code: params.code,
    grant_type: "authorization_code",
    redirect_uri: params.redirect_uri,
    ...(params.code_verifier ? { code_verifier: params.code_verifier } : {}),
  })
  const tokens = await fetchJson<TokenSet>(endpointUrl(provider.token) ?? "https://open.tiktokapis.com/v2/oauth/token/", { service: "TikTok", method: "POST", body })
  return { tokens }
}

/** The TikTok provider. */
export default function TikTok(options?: OAuthUserConfig<TikTokProfile>): OAuth2Config<TikTokProfile> {
  return withOptions<OAuth2Config<TikTokProfile>, TikTokProfile>(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      authorization: { url: "https://www.tiktok.com/v2/auth/authorize/", params: { scope: "user.info.basic" }, clientIdParameter: "client_key" },
      token: { url: "https://open.tiktokapis.com/v2/oauth/token/", request: ({ provider, params }) => tikTokToken(provider, params) },
      userinfo: { url: "https://open.tiktokapis.com/v2/user/info/", params: { fields: "open_id,union_id,display_name,avatar_url" } },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ data: { user } }) => ({ id: user.open_id, name: user.display_name ?? null, email: null, image: user.avatar_url ?? null }),
      style: brandStyle("Tk", "#000000"),
    },
    options,
  )
}
