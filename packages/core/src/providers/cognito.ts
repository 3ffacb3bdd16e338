/**
 * Sign in with Amazon Cognito (OpenID Connect). Each user pool is its own issuer.
 *
 * @remarks
 * - The issuer is `https://cognito-idp.<region>.amazonaws.com/<user pool id>`, not the hosted UI's
 *   domain (which only serves the login pages).
 * - Users who sign up with a username may have no `name` claim: the name falls back to
 *   `cognito:username`.
 *
 * @example
 * ```ts
 * import Cognito from "@sesame/core/providers/cognito"
 * // AUTH_COGNITO_ID, AUTH_COGNITO_SECRET,
 * // AUTH_COGNITO_ISSUER=https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123
 * const providers = [Cognito()]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

export interface CognitoProfile extends Profile {
  sub: string
  "cognito:username"?: string
}

/** The Cognito provider; `issuer` from the options or `AUTH_COGNITO_ISSUER`. */
export default function Cognito(options?: OIDCUserConfig<CognitoProfile>): OIDCConfig<CognitoProfile> {
  return standardOIDC<CognitoProfile>(
    { id: "cognito", name: "Cognito", mark: ["C", "#c7131f"] },
    options,
    {
      profile: (p) => ({ id: p.sub, name: p.name ?? p["cognito:username"] ?? null, email: p.email ?? null, image: typeof p.picture === "string" ? p.picture : null }),
    },
  )
}
