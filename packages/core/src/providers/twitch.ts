/**
 * Sign in with Twitch (OpenID Connect).
 *
 * @remarks
 * - Twitch puts `email` and `picture` in the ID token only when the `claims` parameter asks for
 *   them, which Sesame does.
 * - Twitch sends the token response's `scope` as an array; it is joined into the standard
 *   space-separated string before the response is checked.
 * - Twitch wants the client secret in the request body (`client_secret_post`).
 *
 * @example
 * ```ts
 * import Twitch from "@sesame/core/providers/twitch"
 * // AUTH_TWITCH_ID and AUTH_TWITCH_SECRET
 * const providers = [Twitch()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { rewriteTokenBody } from "./lib/conform.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface TwitchProfile extends Profile {
  sub: string
  preferred_username: string
  email?: string
  picture?: string
}

/** A token response with `scope` as a space-separated string, as RFC 6749 has it. */
export const joinScopeArray = rewriteTokenBody((body) =>
  Array.isArray(body.scope) ? { ...body, scope: body.scope.filter((s: unknown): s is string => typeof s === "string").join(" ") } : undefined,
)

/** The Twitch provider. */
export default function Twitch(options?: OIDCUserConfig<TwitchProfile>): OIDCConfig<TwitchProfile> {
  return standardOIDC<TwitchProfile>(
    { id: "twitch", name: "Twitch", issuer: "https://id.twitch.tv/oauth2", scope: "openid user:read:email", mark: ["T", "#9146ff"] },
    options,
    {
      checks: ["state", "nonce"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      authorization: {
        params: { claims: { id_token: { email: null, email_verified: null, picture: null, preferred_username: null } } },
      },
      token: { conform: joinScopeArray },
      profile: (p) => ({ id: p.sub, name: p.preferred_username, email: p.email ?? null, image: p.picture ?? null }),
    },
  )
}
