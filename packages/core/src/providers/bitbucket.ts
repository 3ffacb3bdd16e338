/**
 * Sign in with Bitbucket Cloud (OAuth 2).
 *
 * @remarks
 * - The profile (`/2.0/user`) has no email: it is read from `/2.0/user/emails` (the `email`
 *   scope), taking the primary confirmed address, else any confirmed one.
 * - The account id is the user's `uuid`, braces included (`{…}`), which never changes.
 *
 * @example
 * ```ts
 * import Bitbucket from "@sesame/core/providers/bitbucket"
 * // AUTH_BITBUCKET_ID (the consumer key) and AUTH_BITBUCKET_SECRET
 * const providers = [Bitbucket()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { bearer, fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /2.0/user`, with `email` added from `/2.0/user/emails`. */
export interface BitbucketProfile {
  uuid: string
  account_id: string
  username?: string
  display_name: string
  links: { avatar: { href: string } }
  email?: string | null
  [key: string]: unknown
}

interface BitbucketEmails {
  values: { email: string; is_primary: boolean; is_confirmed: boolean }[]
}

async function bitbucketUser(userUrl: string, tokens: TokenSet): Promise<Profile> {
  const user = await fetchJson<Profile>(userUrl, { service: "Bitbucket", headers: bearer(tokens) })
  const emails = await fetchJson<BitbucketEmails>(`${userUrl.replace(/\/+$/, "")}/emails`, { service: "Bitbucket", headers: bearer(tokens) })
  const confirmed = Array.isArray(emails.values) ? emails.values.filter((e) => e.is_confirmed) : []
  return { ...user, email: (confirmed.find((e) => e.is_primary) ?? confirmed[0])?.email ?? null }
}

/** The Bitbucket provider. */
export default function Bitbucket(options?: OAuthUserConfig<BitbucketProfile>): OAuth2Config<BitbucketProfile> {
  const user = "https://api.bitbucket.org/2.0/user"
  return withOptions<OAuth2Config<BitbucketProfile>, BitbucketProfile>(
    {
      id: "bitbucket",
      name: "Bitbucket",
      type: "oauth",
      authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
      token: "https://bitbucket.org/site/oauth2/access_token",
      userinfo: { url: user, request: ({ provider, tokens }) => bitbucketUser(endpointUrl(provider.userinfo) ?? user, tokens) },
      checks: ["state"],
      profile: (p) => ({ id: p.uuid, name: p.display_name, email: p.email ?? null, image: p.links.avatar.href }),
      style: brandStyle("B", "#0052cc"),
    },
    options,
  )
}
