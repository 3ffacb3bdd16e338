/**
 * Sign in with Discord (OAuth 2).
 *
 * @remarks
 * - The avatar is a hash, turned into a CDN URL (`.gif` for animated `a_` hashes); users without
 *   one get Discord's default avatar, picked from the id for the new unique usernames
 *   (`discriminator` `"0"`) and from the discriminator for legacy ones.
 * - The display name is `global_name`, falling back to the username.
 * - `email` needs the `email` scope, and `verified` tells whether Discord checked it.
 *
 * @example
 * ```ts
 * import Discord from "@sesame/core/providers/discord"
 * // AUTH_DISCORD_ID and AUTH_DISCORD_SECRET
 * const providers = [Discord()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /users/@me` (https://discord.com/developers/docs/resources/user#user-object). */
export interface DiscordProfile {
  id: string
  username: string
  global_name: string | null
  discriminator: string
  avatar: string | null
  email?: string | null
  verified?: boolean
  [key: string]: unknown
}

/** The avatar URL of a Discord user. */
export function discordAvatar(profile: DiscordProfile): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const index = profile.discriminator === "0" ? Number((BigInt(profile.id) >> 22n) % 6n) : Number(profile.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/** The Discord provider. */
export default function Discord(options?: OAuthUserConfig<DiscordProfile>): OAuth2Config<DiscordProfile> {
  return withOptions<OAuth2Config<DiscordProfile>, DiscordProfile>(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.id, name: p.global_name ?? p.username, email: p.email ?? null, image: discordAvatar(p) }),
      isEmailVerified: (p) => p.verified === true,
      style: brandStyle("D", "#5865f2"),
    },
    options,
  )
}
