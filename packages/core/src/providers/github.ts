/**
 * Sign in with GitHub (plain OAuth 2; GitHub.com or GitHub Enterprise Server).
 *
 * @remarks
 * - Users may keep their email private: `/user` then answers `email: null`, and the address is read
 *   from `/user/emails` (the `user:email` scope), taking the primary verified address, else any
 *   verified one; an unverified address is never used.
 * - Account ids are numbers; they are stored as strings.
 * - The API refuses requests without a `User-Agent`, so Sesame sends one.
 * - GitHub Enterprise Server: `enterprise: { baseUrl }`; the API is then under `<baseUrl>/api/v3`.
 *
 * @example
 * ```ts
 * import GitHub from "@sesame/core/providers/github"
 * // AUTH_GITHUB_ID and AUTH_GITHUB_SECRET; callback URL <origin>/auth/callback/github
 * const providers = [GitHub()]
 * ```
 *
 * @module
 */
import type { OAuth2Config, TokenSet } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { bearer, fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /user` (https://docs.github.com/en/rest/users/users#get-the-authenticated-user). */
export interface GitHubProfile {
  id: number
  login: string
  name: string | null
  /** The public email; null when the user keeps it private (read from `/user/emails` then). */
  email: string | null
  avatar_url: string
  html_url: string
  type: string
  [key: string]: unknown
}

/** An entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

export interface GitHubOptions extends OAuthUserConfig<GitHubProfile> {
  /** GitHub Enterprise Server: the base URL of the instance, e.g. `https://github.example.com`. */
  enterprise?: { baseUrl?: string }
}

/** The address to use from `/user/emails`: the primary one if verified, else the first verified one. */
export function pickGitHubEmail(emails: readonly GitHubEmail[]): string | null {
  const verified = emails.filter((e) => e.verified)
  return (verified.find((e) => e.primary) ?? verified[0])?.email ?? null
}

/**
 * `/user`, with `email_verified` added from `/user/emails`: the public address of `/user` carries
 * no word on whether GitHub checked it, and Sesame starts users verified, and links accounts by
 * address, only on addresses a provider vouches for. Without a public address, the picked one is verified by construction.
 */
async function gitHubUser(userUrl: string, tokens: TokenSet): Promise<Profile> {
  const headers = { ...bearer(tokens), accept: "application/vnd.github+json", "user-agent": "Sesame" }
  const user = await fetchJson<Profile>(userUrl, { service: "GitHub", headers })
  const emailsUrl = `${userUrl.replace(/\/+$/, "")}/emails`
  if (!user.email) {
    const emails = await fetchJson<GitHubEmail[]>(emailsUrl, { service: "GitHub", headers })
    user.email = Array.isArray(emails) ? pickGitHubEmail(emails) : null
    user.email_verified = user.email !== null
    return user
  }
  const publicEmail = String(user.email).toLowerCase()
  try {
    const emails = await fetchJson<GitHubEmail[]>(emailsUrl, { service: "GitHub", headers })
    user.email_verified = Array.isArray(emails) && emails.some((e) => e.verified && e.email.toLowerCase() === publicEmail)
  } catch {
    // Without the user:email scope the address is still usable, just not vouched for.
    user.email_verified = false
  }
  return user
}

/** The GitHub provider. Options override the defaults. */
export default function GitHub(options: GitHubOptions = {}): OAuth2Config<GitHubProfile> {
  const { enterprise, ...rest } = options
  const base = enterprise?.baseUrl?.replace(/\/+$/, "") ?? "https://github.com"
  const api = enterprise?.baseUrl ? `${base}/api/v3` : "https://api.github.com"
  return withOptions<OAuth2Config<GitHubProfile>, GitHubProfile>(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      authorization: { url: `${base}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
      token: `${base}/login/oauth/access_token`,
      userinfo: {
        url: `${api}/user`,
        request: ({ provider, tokens }) => gitHubUser(endpointUrl(provider.userinfo) ?? `${api}/user`, tokens),
      },
      checks: ["pkce", "state"],
      profile: (profile) => ({ id: String(profile.id), name: profile.name ?? profile.login, email: profile.email, image: profile.avatar_url }),
      style: brandStyle("GH", "#24292f"),
    },
    rest,
  )
}
