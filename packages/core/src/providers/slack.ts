/**
 * Sign in with Slack ("Sign in with Slack", OpenID Connect).
 *
 * @remarks
 * - Slack's claims are namespaced: the workspace is `https://slack.com/team_id`, and pictures come
 *   in several sizes (`https://slack.com/user_image_192` is the button-sized one used here).
 * - Slack answers token errors with HTTP 200 and `ok: false`; without an access token the sign-in
 *   fails with `OAuthCallbackError` all the same.
 * - The same person has a different account in each workspace (`sub` is per workspace).
 *
 * @example
 * ```ts
 * import Slack from "@sesame/core/providers/slack"
 * // AUTH_SLACK_ID and AUTH_SLACK_SECRET
 * const providers = [Slack()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface SlackProfile extends Profile {
  sub: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/user_image_192"?: string
  "https://slack.com/team_name"?: string
}

/** The Slack provider. */
export default function Slack(options?: OIDCUserConfig<SlackProfile>): OIDCConfig<SlackProfile> {
  return standardOIDC<SlackProfile>(
    { id: "slack", name: "Slack", issuer: "https://slack.com", mark: ["S", "#4a154b"] },
    options,
    {
      checks: ["state", "nonce"],
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: p["https://slack.com/user_image_192"] ?? null }),
    },
  )
}
