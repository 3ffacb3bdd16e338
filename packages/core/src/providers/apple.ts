/**
 * Sign in with Apple (OpenID Connect).
 *
 * @remarks
 * - Apple answers with `response_mode=form_post` whenever the name or email is asked for: the
 *   callback is a cross-site `POST`, which Sesame accepts (its check cookies are `SameSite=None`
 *   for that sign-in).
 * - The name is never in the ID token: Apple posts it once, in the `user` form field of the first
 *   sign-in, as JSON (`{"name":{"firstName","lastName"}}`). Sesame copies it into the profile
 *   (`profile.user`), unsigned, for the name only; the email always comes from the signed ID token.
 * - There is no userinfo endpoint: the profile is the ID token's claims. `email_verified` and
 *   `is_private_email` may be the strings `"true"`/`"false"`; private relay addresses end in
 *   `@privaterelay.appleid.com`.
 * - The client secret is a JWT (ES256) that you sign with your Sign in with Apple key; Apple
 *   accepts it for at most six months, so regenerate it before it expires.
 * - Apple does not support PKCE on the web: `state` and `nonce` protect the callback.
 *
 * @example
 * ```ts
 * import Apple from "@sesame/core/providers/apple"
 * // AUTH_APPLE_ID (the Services ID) and AUTH_APPLE_SECRET (the signed client secret JWT)
 * const providers = [Apple()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import { brandStyle } from "./lib/logo.js"
import { withOptions, type OIDCUserConfig } from "./lib/options.js"

/** The claims of an Apple ID token, plus the `user` field Apple posts on the first sign-in. */
export interface AppleProfile {
  sub: string
  email?: string
  email_verified?: boolean | "true" | "false"
  is_private_email?: boolean | "true" | "false"
  /** Only on the first sign-in, from the `user` form field. */
  user?: { name?: { firstName?: string; lastName?: string }; email?: string }
  [claim: string]: unknown
}

/** The full name Apple posted on the first sign-in, or null. */
export function appleName(profile: AppleProfile): string | null {
  const name = profile.user?.name
  const full = [name?.firstName, name?.lastName].filter((part) => typeof part === "string" && part.trim()).join(" ")
  return full || null
}

/** The Apple provider. */
export default function Apple(options?: OIDCUserConfig<AppleProfile>): OIDCConfig<AppleProfile> {
  return withOptions<OIDCConfig<AppleProfile>, AppleProfile>(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      checks: ["state", "nonce"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profileFromCallback: ["user"],
      profile: (profile) => ({ id: profile.sub, name: appleName(profile), email: profile.email ?? null, image: null }),
      style: brandStyle("A", "#000000"),
    },
    options,
  )
}
