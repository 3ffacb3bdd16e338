/**
 * Sign in with LINE (LINE Login v2.1).
 *
 * @remarks
 * - LINE signs the ID tokens of web logins with the channel secret (HS256), which Sesame does not
 *   accept as a signature. The provider is therefore a plain OAuth one: the ID token is set aside
 *   from the token response and verified by LINE's own endpoint (`POST /oauth2/v2.1/verify`), whose
 *   answer is the profile (`sub`, `name`, `picture`, `email`).
 * - `email` needs the `email` scope, which LINE grants only to channels approved for it.
 *
 * @example
 * ```ts
 * import Line from "@sesame/core/providers/line"
 * // AUTH_LINE_ID (the channel id) and AUTH_LINE_SECRET (the channel secret)
 * const providers = [Line()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, OAuthConfig, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { rewriteTokenBody } from "./lib/conform.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** The answer of `POST /oauth2/v2.1/verify`. */
export interface LineProfile {
  sub: string
  name?: string
  picture?: string
  email?: string
  [key: string]: unknown
}

/** Moves `id_token` to `line_id_token`, so that only LINE's verify endpoint reads it. */
export const setIdTokenAside = rewriteTokenBody(({ id_token, ...rest }) => (id_token === undefined ? undefined : { ...rest, line_id_token: id_token }))

async function lineProfile(provider: OAuthConfig, tokens: TokenSet): Promise<Profile> {
  if (typeof tokens.line_id_token !== "string") throw new Error("LINE sent no ID token: ask for the openid scope.")
  const body = new URLSearchParams({ id_token: tokens.line_id_token, client_id: provider.clientId ?? "" })
  return fetchJson<Profile>(endpointUrl(provider.userinfo) ?? "https://api.line.me/oauth2/v2.1/verify", { service: "LINE", method: "POST", body })
}

/** The LINE provider. */
export default function Line(options?: OAuthUserConfig<LineProfile>): OAuth2Config<LineProfile> {
  return withOptions<OAuth2Config<LineProfile>, LineProfile>(
    {
      id: "line",
      name: "LINE",
      type: "oauth",
      authorization: { url: "https://access.line.me/oauth2/v2.1/authorize", params: { scope: "openid profile email" } },
      token: { url: "https://api.line.me/oauth2/v2.1/token", conform: setIdTokenAside },
      userinfo: { url: "https://api.line.me/oauth2/v2.1/verify", request: ({ provider, tokens }) => lineProfile(provider, tokens) },
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: p.picture ?? null }),
      style: brandStyle("L", "#06c755"),
    },
    options,
  )
}
