/**
 * The shape most OpenID Connect services share: discovery from the issuer, the standard scopes,
 * PKCE and a nonce, and the profile read from the standard claims of the ID token. A service
 * hosted per customer (an Okta org, a Keycloak realm) has no default issuer: it comes from the
 * `issuer` option or `AUTH_<ID>_ISSUER`.
 *
 * @module
 */
import { defaultProfile } from "../../oauth/provider.js"
import type { OIDCConfig } from "../../oauth/types.js"
import type { Profile } from "../../types.js"
import { brandStyle } from "./logo.js"
import { withOptions, type OIDCUserConfig } from "./options.js"

/** What tells one standard OIDC service from another. */
export interface OIDCService {
  id: string
  name: string
  /** The button: monogram letters, brand colour, and the letters' colour when white does not read. */
  mark: [letters: string, brandColor: string, foreground?: string]
  /** The issuer, for a service with one issuer for everyone; none for a per-customer service. */
  issuer?: string
  /** Default `openid profile email`. */
  scope?: string
}

/**
 * A standard OIDC provider for `service`: the shared defaults, then the service's own `quirks`
 * (merged like options), then the user's `options`.
 */
export function standardOIDC<P extends Profile = Profile>(
  service: OIDCService,
  options: OIDCUserConfig<P> | undefined,
  quirks?: OIDCUserConfig<P>,
): OIDCConfig<P> {
  const [letters, brandColor, foreground] = service.mark
  const defaults = withOptions<OIDCConfig<P>, P>(
    {
      id: service.id,
      name: service.name,
      type: "oidc",
      issuer: service.issuer,
      authorization: { params: { scope: service.scope ?? "openid profile email" } },
      checks: ["pkce", "nonce"],
      profile: (profile) => defaultProfile(profile),
      style: brandStyle(letters, brandColor, foreground),
    },
    quirks,
  )
  return withOptions<OIDCConfig<P>, P>(defaults, options)
}
