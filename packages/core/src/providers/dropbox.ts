/**
 * Sign in with Dropbox (OAuth 2).
 *
 * @remarks
 * - The profile endpoint is an RPC call: `POST /2/users/get_current_account` with no body, which a
 *   plain userinfo `GET` cannot make.
 * - For a refresh token, pass `authorization: { params: { token_access_type: "offline" } }`.
 *
 * @example
 * ```ts
 * import Dropbox from "@sesame/core/providers/dropbox"
 * // AUTH_DROPBOX_ID (the app key) and AUTH_DROPBOX_SECRET
 * const providers = [Dropbox()]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { bearer, fetchJson } from "./lib/http.js"
import { brandStyle } from "./lib/logo.js"
import { endpointUrl, withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `POST /2/users/get_current_account`. */
export interface DropboxProfile {
  account_id: string
  name: { display_name: string; given_name?: string; surname?: string }
  email: string
  email_verified: boolean
  profile_photo_url?: string
  [key: string]: unknown
}

/** The Dropbox provider. */
export default function Dropbox(options?: OAuthUserConfig<DropboxProfile>): OAuth2Config<DropboxProfile> {
  const account = "https://api.dropboxapi.com/2/users/get_current_account"
  return withOptions<OAuth2Config<DropboxProfile>, DropboxProfile>(
    {
      id: "dropbox",
      name: "Dropbox",
      type: "oauth",
      authorization: { url: "https://www.dropbox.com/oauth2/authorize", params: { scope: "account_info.read" } },
      token: "https://api.dropboxapi.com/oauth2/token",
      userinfo: {
        url: account,
        request: ({ provider, tokens }) => fetchJson<Profile>(endpointUrl(provider.userinfo) ?? account, { service: "Dropbox", method: "POST", headers: bearer(tokens) }),
      },
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.account_id, name: p.name.display_name, email: p.email, image: p.profile_photo_url ?? null }),
      style: brandStyle("D", "#0061fe"),
    },
    options,
  )
}
