/**
 * Sign in with Notion (a public integration's OAuth 2).
 *
 * @remarks
 * - Notion's token endpoint takes a JSON body (with HTTP Basic client authentication), so the
 *   provider makes the token request itself.
 * - The person who signed in is in the token response (`owner.user`), not at `/v1/users/me`,
 *   which describes the integration's bot; the profile is read from there.
 * - `owner=user` is required in the authorization URL; there is no PKCE.
 *
 * @example
 * ```ts
 * import Notion from "@sesame/core/providers/notion"
 * // AUTH_NOTION_ID and AUTH_NOTION_SECRET (the integration's OAuth client id and secret)
 * const providers = [Notion()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, OAuthConfig, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `owner.user` of the token response. */
export interface NotionProfile {
  id: string
  name?: string
  avatar_url?: string | null
  person?: { email?: string }
  [key: string]: unknown
}

async function notionToken(provider: OAuthConfig, params: { code: string; redirect_uri: string }) {
  const credentials = btoa(`${provider.clientId ?? ""}:${provider.clientSecret ?? ""}`)
  const tokens = await fetchJson<TokenSet>(endpointUrl(provider.token) ?? "https://api.notion.com/v1/oauth/token", {
    service: "Notion",
    method: "POST",
    headers: { authorization: `Basic ${credentials}`, "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", code: params.code, redirect_uri: params.redirect_uri }),
  })
  return { tokens }
}

function owner(tokens: TokenSet): Profile {
  const user = (tokens.owner as { user?: unknown } | undefined)?.user
  if (!user || typeof user !== "object") throw new Error("Notion's token response names no user (was the integration installed for a workspace?).")
  return user as Profile
}

/** The Notion provider. */
export default function Notion(options?: OAuthUserConfig<NotionProfile>): OAuth2Config<NotionProfile> {
  return withOptions<OAuth2Config<NotionProfile>, NotionProfile>(
    {
      id: "notion",
      name: "Notion",
      type: "oauth",
      authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user" } },
      token: { url: "https://api.notion.com/v1/oauth/token", request: ({ provider, params }) => notionToken(provider, params) },
      userinfo: { url: "https://api.notion.com/v1/users/me", request: ({ tokens }) => owner(tokens) },
      checks: ["state"],
      profile: (p) => ({ id: p.id, name: p.name ?? null, email: p.person?.email ?? null, image: p.avatar_url ?? null }),
      style: brandStyle("N", "#000000"),
    },
    options,
  )
}
