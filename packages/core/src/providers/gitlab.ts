/**
 * Sign in with GitLab (OpenID Connect; GitLab.com or a self-managed instance).
 *
 * @remarks
 * - Self-managed GitLab: pass `issuer: "https://gitlab.example.com"`.
 * - The account id is GitLab's numeric user id (the `sub` claim), the same as the REST API's `id`.
 * - The `email` claim is the user's primary email; `email_verified` tells whether it is confirmed.
 *
 * @example
 * ```ts
 * import GitLab from "@sesame/core/providers/gitlab"
 * // AUTH_GITLAB_ID and AUTH_GITLAB_SECRET
 * const providers = [GitLab()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface GitLabProfile extends Profile {
  sub: string
  nickname?: string
  profile?: string
  groups?: string[]
}

/** The GitLab provider. */
export default function GitLab(options?: OIDCUserConfig<GitLabProfile>): OIDCConfig<GitLabProfile> {
  return standardOIDC({ id: "gitlab", name: "GitLab", issuer: "https://gitlab.com", mark: ["GL", "#e24329"] }, options)
}
