/**
 * Sign in with Reddit (OAuth 2).
 *
 * @remarks
 * - Reddit rate-limits requests without a descriptive `User-Agent`, so the profile request sends
 *   one.
 * - Avatar URLs come HTML-escaped (`&amp;`); they are unescaped. The avatar is the Snoovatar when
 *   the user has one, else `icon_img`.
 * - There is no email. `duration=permanent` asks for a refresh token.
 * - Reddit requires `state` and does not support PKCE.
 *
 * @example
 * ```ts
 * import Reddit from "@sesame/core/providers/reddit"
 * // AUTH_REDDIT_ID and AUTH_REDDIT_SECRET
 * const providers = [Reddit()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { bearer, fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /api/v1/me`. */
export interface RedditProfile {
  id: string
  name: string
  icon_img?: string
  snoovatar_img?: string
  [key: string]: unknown
}

function unescapeAmpersands(url: string | undefined): string | null {
  return url ? url.replaceAll("&amp;", "&") : null
}

/** The Reddit provider. */
export default function Reddit(options?: OAuthUserConfig<RedditProfile>): OAuth2Config<RedditProfile> {
  const me = "https://oauth.reddit.com/api/v1/me"
  return withOptions<OAuth2Config<RedditProfile>, RedditProfile>(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity", duration: "permanent" } },
      token: "https://www.reddit.com/api/v1/access_token",
      userinfo: {
        url: me,
        request: ({ provider, tokens }) =>
          fetchJson<Profile>(endpointUrl(provider.userinfo) ?? me, { service: "Reddit", headers: { ...bearer(tokens), "user-agent": "web:sesame-auth:1 (sign-in)" } }),
      },
      checks: ["state"],
      profile: (p) => ({ id: p.id, name: p.name, email: null, image: unescapeAmpersands(p.snoovatar_img || p.icon_img) }),
      style: brandStyle("R", "#ff4500"),
    },
    options,
  )
}
