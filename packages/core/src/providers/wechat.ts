/**
 * Sign in with WeChat (Weixin OAuth 2 for websites, or inside WeChat for official accounts).
 *
 * @remarks
 * - The client id is called `appid` in the authorization URL, which ends in `#wechat_redirect`.
 * - The token endpoint is a `GET` with the secret in the query, and it reports errors with HTTP
 *   200 and an `errcode`; it sends no `token_type`. The provider makes that request itself.
 * - The profile needs the `openid` from the token response as a query parameter; the account id is
 *   the `unionid` when the app belongs to an open-platform account (the same user across the
 *   developer's apps), else the `openid`. There is no email.
 * - `platformType: "OfficialAccount"` signs in inside the WeChat app (scope `snsapi_userinfo`);
 *   the default `"WebsiteApp"` shows a QR code (scope `snsapi_login`).
 * - No PKCE: `state` protects the callback.
 *
 * @example
 * ```ts
 * import WeChat from "@sesame/core/providers/wechat"
 * // AUTH_WECHAT_ID (the AppID) and AUTH_WECHAT_SECRET (the AppSecret)
 * const providers = [WeChat()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, OAuthConfig, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /sns/userinfo`. */
export interface WeChatProfile {
  openid: string
  unionid?: string
  nickname: string
  headimgurl?: string
  [key: string]: unknown
}

export interface WeChatOptions extends OAuthUserConfig<WeChatProfile> {
  /** Default `WebsiteApp` (QR code login on a website). */
  platformType?: "WebsiteApp" | "OfficialAccount"
}

/** Throws on WeChat's error answers, which come with HTTP 200 and an `errcode`. */
function checked<T extends object>(body: T, what: string): T {
  const code = (body as { errcode?: unknown }).errcode
  if (typeof code === "number" && code !== 0) throw new Error(`WeChat refused the ${what} request (errcode ${code}).`)
  return body
}

async function weChatToken(provider: OAuthConfig, code: string): Promise<{ tokens: TokenSet }> {
  const url = new URL(endpointUrl(provider.token) ?? "https://api.weixin.qq.com/sns/oauth2/access_token")
  url.search = new URLSearchParams({ appid: provider.clientId ?? "", secret: provider.clientSecret ?? "", code, grant_type: "authorization_code" }).toString()
  const tokens = checked(await fetchJson<TokenSet>(url, { service: "WeChat" }), "token")
  return { tokens: { ...tokens, token_type: "bearer" } }
}

async function weChatUser(provider: OAuthConfig, tokens: TokenSet): Promise<Profile> {
  const url = new URL(endpointUrl(provider.userinfo) ?? "https://api.weixin.qq.com/sns/userinfo")
  url.search = new URLSearchParams({ access_token: tokens.access_token ?? "", openid: String(tokens.openid ?? ""), lang: "en" }).toString()
  return checked(await fetchJson<Profile>(url, { service: "WeChat" }), "profile")
}

/** The WeChat provider. */
export default function WeChat(options: WeChatOptions = {}): OAuth2Config<WeChatProfile> {
  const { platformType = "WebsiteApp", ...rest } = options
  const official = platformType === "OfficialAccount"
  return withOptions<OAuth2Config<WeChatProfile>, WeChatProfile>(
    {
      id: "wechat",
      name: "WeChat",
      type: "oauth",
      authorization: {
        url: official ? "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect" : "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
        params: { scope: official ? "snsapi_userinfo" : "snsapi_login" },
        clientIdParameter: "appid",
      },
      token: { url: "https://api.weixin.qq.com/sns/oauth2/access_token", request: ({ provider, params }) => weChatToken(provider, params.code) },
      userinfo: { url: "https://api.weixin.qq.com/sns/userinfo", request: ({ provider, tokens }) => weChatUser(provider, tokens) },
      checks: ["state"],
      profile: (p) => ({ id: p.unionid ?? p.openid, name: p.nickname, email: null, image: p.headimgurl || null }),
      style: brandStyle("W", "#07c160"),
    },
    rest,
  )
}
