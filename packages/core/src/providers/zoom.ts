/**
 * Sign in with Zoom (OAuth 2).
 *
 * @remarks
 * - Scopes are chosen in the Zoom app's settings, not in the request; the app needs the scope
 *   that reads the user's own profile (`user:read:user`).
 *
 * @example
 * ```ts
 * import Zoom from "@sesame/core/providers/zoom"
 * // AUTH_ZOOM_ID and AUTH_ZOOM_SECRET
 * const providers = [Zoom()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v2/users/me`. */
export interface ZoomProfile {
  id: string
  first_name?: string
  last_name?: string
  display_name?: string
  email: string
  pic_url?: string
  [key: string]: unknown
}

/** The Zoom provider. */
export default function Zoom(options?: OAuthUserConfig<ZoomProfile>): OAuth2Config<ZoomProfile> {
  return withOptions<OAuth2Config<ZoomProfile>, ZoomProfile>(
    {
      id: "zoom",
      name: "Zoom",
      type: "oauth",
      authorization: "https://zoom.us/oauth/authorize",
      token: "https://zoom.us/oauth/token",
      userinfo: "https://api.zoom.us/v2/users/me",
      checks: ["pkce", "state"],
      profile: (p) => ({
        id: p.id,
        name: p.display_name || [p.first_name, p.last_name].filter(Boolean).join(" ") || null,
        email: p.email,
        image: p.pic_url ?? null,
      }),
      style: brandStyle("Z", "#0b5cff"),
    },
    options,
  )
}
