/**
 * Sign in with Spotify (OAuth 2).
 *
 * @remarks
 * - The picture is the first of `images` (several sizes, possibly none).
 * - `email` needs the `user-read-email` scope and is not verified by Spotify.
 *
 * @example
 * ```ts
 * import Spotify from "@sesame/core/providers/spotify"
 * // AUTH_SPOTIFY_ID and AUTH_SPOTIFY_SECRET
 * const providers = [Spotify()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /v1/me`. */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  email?: string
  images?: { url: string; height: number | null; width: number | null }[]
  [key: string]: unknown
}

/** The Spotify provider. */
export default function Spotify(options?: OAuthUserConfig<SpotifyProfile>): OAuth2Config<SpotifyProfile> {
  return withOptions<OAuth2Config<SpotifyProfile>, SpotifyProfile>(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.id, name: p.display_name ?? p.id, email: p.email ?? null, image: p.images?.[0]?.url ?? null }),
      style: brandStyle("S", "#1db954", "#000000"),
    },
    options,
  )
}
