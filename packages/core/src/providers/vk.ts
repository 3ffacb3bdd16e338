/**
 * Sign in with VK ID (VK's OAuth 2.1 service).
 *
 * @remarks
 * - VK ID is a public client with mandatory PKCE: no client secret is sent.
 * - The callback carries a `device_id` that the token request must repeat, with the `state`;
 *   the token request is therefore made by the provider itself.
 * - The token response's ID token is not used (its keys are not published for verification); the
 *   profile comes from `POST /oauth2/user_info`, wrapped in `{ user: … }`.
 * - The legacy `oauth.vk.com` service is deprecated; apps registered there must move to VK ID.
 *
 * @example
 * ```ts
 * import VK from "@sesame/core/providers/vk"
 * // AUTH_VK_ID (the app id)
 * const providers = [VK()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, OAuthConfig, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `POST /oauth2/user_info`. */
export interface VKProfile {
  user: { user_id: string; first_name?: string; last_name?: string; avatar?: string; email?: string }
  [key: string]: unknown
}

const base = "https://id.vk.com"

async function vkToken(provider: OAuthConfig, params: { code: string; redirect_uri: string; code_verifier?: string }, state: string | undefined, callback: URLSearchParams) {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: params.code,
    redirect_uri: params.redirect_uri,
    client_id: provider.clientId ?? "",
    device_id: callback.get("device_id") ?? "",
    code_verifier: params.code_verifier ?? "",
    state: state ?? "",
  })
  const { id_token: _unverified, ...tokens } = await fetchJson<TokenSet>(endpointUrl(provider.token) ?? `${base}/oauth2/auth`, { service: "VK ID", method: "POST", body })
  return { tokens }
}

async function vkUser(provider: OAuthConfig, tokens: TokenSet): Promise<Profile> {
  const body = new URLSearchParams({ client_id: provider.clientId ?? "", access_token: tokens.access_token ?? "" })
  return fetchJson<Profile>(endpointUrl(provider.userinfo) ?? `${base}/oauth2/user_info`, { service: "VK ID", method: "POST", body })
}

/** The VK ID provider. */
export default function VK(options?: OAuthUserConfig<VKProfile>): OAuth2Config<VKProfile> {
  return withOptions<OAuth2Config<VKProfile>, VKProfile>(
    {
      id: "vk",
      name: "VK",
      type: "oauth",
      authorization: { url: `${base}/authorize`, params: { scope: "vkid.personal_info email" } },
      token: { url: `${base}/oauth2/auth`, request: ({ provider, params, checks, callback }) => vkToken(provider, params, checks.state, callback) },
      userinfo: { url: `${base}/oauth2/user_info`, request: ({ provider, tokens }) => vkUser(provider, tokens) },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "none" },
      profile: ({ user }) => ({
        id: String(user.user_id),
        name: [user.first_name, user.last_name].filter(Boolean).join(" ") || null,
        email: user.email ?? null,
        image: user.avatar ?? null,
      }),
      style: brandStyle("VK", "#0077ff"),
    },
    options,
  )
}
