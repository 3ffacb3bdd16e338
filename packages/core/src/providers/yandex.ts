/**
 * Sign in with Yandex ID (OAuth 2).
 *
 * @remarks
 * - The profile endpoint (`login.yandex.ru/info`) documents the `Authorization: OAuth <token>`
 *   scheme rather than `Bearer`, so the request is made that way.
 * - The picture is an avatar id, turned into `https://avatars.yandex.net/get-yapic/<id>/islands-200`
 *   unless `is_avatar_empty`.
 *
 * @example
 * ```ts
 * import Yandex from "@sesame/core/providers/yandex"
 * // AUTH_YANDEX_ID and AUTH_YANDEX_SECRET
 * const providers = [Yandex()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET https://login.yandex.ru/info?format=json`. */
export interface YandexProfile {
  id: string
  login: string
  display_name?: string
  real_name?: string
  default_email?: string
  default_avatar_id?: string
  is_avatar_empty?: boolean
  [key: string]: unknown
}

/** The Yandex provider. */
export default function Yandex(options?: OAuthUserConfig<YandexProfile>): OAuth2Config<YandexProfile> {
  const info = "https://login.yandex.ru/info?format=json"
  return withOptions<OAuth2Config<YandexProfile>, YandexProfile>(
    {
      id: "yandex",
      name: "Yandex",
      type: "oauth",
      authorization: { url: "https://oauth.yandex.ru/authorize", params: { scope: "login:info login:email login:avatar" } },
      token: "https://oauth.yandex.ru/token",
      userinfo: {
        url: info,
        request: ({ provider, tokens }) =>
          fetchJson<Profile>(endpointUrl(provider.userinfo) ?? info, { service: "Yandex", headers: { authorization: `OAuth ${tokens.access_token ?? ""}` } }),
      },
      checks: ["pkce", "state"],
      profile: (p) => ({
        id: p.id,
        name: p.display_name ?? p.real_name ?? p.login,
        email: p.default_email ?? null,
        image: p.default_avatar_id && !p.is_avatar_empty ? `https://avatars.yandex.net/get-yapic/${p.default_avatar_id}/islands-200` : null,
      }),
      style: brandStyle("Ya", "#fc3f1d"),
    },
    options,
  )
}
