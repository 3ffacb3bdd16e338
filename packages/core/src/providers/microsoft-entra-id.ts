/**
 * Sign in with Microsoft Entra ID (formerly Azure AD; OpenID Connect on the Microsoft identity
 * platform v2.0).
 *
 * @remarks
 * - Each tenant is its own issuer: `https://login.microsoftonline.com/<tenant id>/v2.0`. Pass
 *   `tenantId` (or `issuer`, or set `AUTH_MICROSOFT_ENTRA_ID_ISSUER`); there is no default, so that
 *   an app never lets every Microsoft account in by accident.
 * - `tenantId: "common"` (any work, school or personal account) and `"organizations"` (any work or
 *   school account) publish the issuer template `https://login.microsoftonline.com/{tenantid}/v2.0`;
 *   each ID token is then checked against its own tenant's issuer (from its `tid` claim), as
 *   Microsoft documents. Restrict tenants in the `signIn` callback with `profile.tid`.
 * - Personal accounts only: use the consumer tenant's id,
 *   `9188040d-6c67-4c5b-b112-36a304b66dad`, whose discovery names that id as issuer.
 * - The `email` claim is optional and not verified by Microsoft: never link accounts by it (leave
 *   `allowDangerousEmailAccountLinking` off). There is no picture claim (the photo is behind the
 *   Graph API).
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "@sesame/core/providers/microsoft-entra-id"
 * // AUTH_MICROSOFT_ENTRA_ID_ID and AUTH_MICROSOFT_ENTRA_ID_SECRET
 * const providers = [MicrosoftEntraID({ tenantId: process.env.AZURE_TENANT_ID })]
 * ```
 *
 * @module
 */
import type { OIDCConfig } from "../oauth/types.js"
import type { Profile } from "../types.js"
import { standardOIDC } from "./lib/oidc.js"
import type { OIDCUserConfig } from "./lib/options.js"

/** The claims of an Entra ID token (https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference). */
export interface MicrosoftEntraIDProfile extends Profile {
  sub: string
  /** The user's tenant. */
  tid: string
  /** The user's object id, the same in every app of the tenant. */
  oid: string
  name?: string
  email?: string
  preferred_username?: string
}

export interface MicrosoftEntraIDOptions extends OIDCUserConfig<MicrosoftEntraIDProfile> {
  /** A tenant id (GUID), `common` or `organizations`. Ignored when `issuer` is given. */
  tenantId?: string
}

/** The Entra ID issuer of a tenant. */
export function entraIssuer(tenantId: string): string {
  return `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/v2.0`
}

/** The Microsoft Entra ID provider; the tenant from `tenantId`, `issuer` or `AUTH_MICROSOFT_ENTRA_ID_ISSUER`. */
export default function MicrosoftEntraID(options: MicrosoftEntraIDOptions = {}): OIDCConfig<MicrosoftEntraIDProfile> {
  const { tenantId, ...rest } = options
  const issuer = rest.issuer ?? (tenantId ? entraIssuer(tenantId) : undefined)
  return standardOIDC<MicrosoftEntraIDProfile>(
    { id: "microsoft-entra-id", name: "Microsoft Entra ID", mark: ["M", "#0078d4"] },
    { ...rest, ...(issuer ? { issuer } : {}) },
    { profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: null }) },
  )
}
