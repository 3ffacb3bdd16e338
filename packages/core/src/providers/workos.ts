/**
 * Sign in with WorkOS SSO (OAuth 2 in front of the enterprise identity providers WorkOS connects).
 *
 * @remarks
 * - Each authorization must name what to sign in with: `connection`, `organization` or `provider`
 *   (for example `authorization: { params: { organization: "org_…" } }`, or per sign-in as a
 *   request parameter of `signin/workos`).
 * - WorkOS takes the client secret (your API key) in the request body, and its token response
 *   carries the profile but no `token_type`; the type is set to bearer before the response is
 *   checked, and the profile is read from `/sso/profile`.
 *
 * @example
 * ```ts
 * import WorkOS from "@sesame/core/providers/workos"
 * // AUTH_WORKOS_ID (the client id) and AUTH_WORKOS_SECRET (the API key)
 * const providers = [WorkOS({ authorization: { params: { organization: "org_01EHZNVPK3SFK441A1RGBFSHRT" } } })]
 * ```
 *
 * @module
 */
import type { OAuth2Config } from "../oauth/types.js"
import { rewriteTokenBody } from "./lib/conform.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OAuthUserConfig } from "./lib/options.js"

/** `GET /sso/profile`. */
export interface WorkOSProfile {
  id: string
  email: string
  first_name?: string | null
  last_name?: string | null
  organization_id?: string | null
  connection_id: string
  connection_type: string
  [key: string]: unknown
}

/** A token response with `token_type` set to bearer when the server left it out. */
export const bearerTokenType = rewriteTokenBody((body) => ("token_type" in body ? undefined : { ...body, token_type: "bearer" }))

/** The WorkOS provider. */
export default function WorkOS(options?: OAuthUserConfig<WorkOSProfile>): OAuth2Config<WorkOSProfile> {
  return withOptions<OAuth2Config<WorkOSProfile>, WorkOSProfile>(
    {
      id: "workos",
      name: "WorkOS",
      type: "oauth",
      authorization: "https://api.workos.com/sso/authorize",
      token: { url: "https://api.workos.com/sso/token", conform: bearerTokenType },
      userinfo: "https://api.workos.com/sso/profile",
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (p) => ({ id: p.id, name: [p.first_name, p.last_name].filter(Boolean).join(" ") || null, email: p.email, image: null }),
      style: brandStyle("W", "#6363f1"),
    },
    options,
  )
}
