/**
 * Enterprise single sign-on for Sesame, as a feature module beside the organizations module: each
 * organization connects its own identity provider (SAML 2.0 or OpenID Connect), its people are sent there by
 * the domain of their work address (a domain the organization proved), and whoever it signs in
 * becomes a member just in time.
 *
 * ```ts
 * import { organizations } from "@sesame/organizations"
 * import { sso } from "@sesame/sso"
 *
 * const orgs = organizations()
 * // plugins: [orgs, sso({ organizations: orgs })] in the Sesame configuration
 * // With a service provider key pair, SAML connections may sign their requests and receive encrypted assertions:
 * // sso({ organizations: orgs, serviceProvider: { privateKey: process.env.SAML_SP_PRIVATE_KEY!, certificate: process.env.SAML_SP_CERTIFICATE! } })
 * ```
 *
 * @module
 */
import type { SesameModule } from "@sesame/core"
import { connectionApi } from "./connections.js"
import { ssoMessages } from "./messages.js"
import { connectionModel, samlAssertionModel, samlRequestModel } from "./models.js"
import { resolveSsoOptions, type SsoOptions } from "./options.js"
import { connectionProviders } from "./providers.js"
import { provisionOnSignIn } from "./provisioning.js"
import { pageRoutes } from "./pages.js"
import { connectionRoutes } from "./routes.js"
import { samlRoutes } from "./saml-flow.js"
import { scimModels } from "./scim/models.js"
import { scimService } from "./scim/service.js"
import { scimTokenApi } from "./scim/tokens.js"
import { signInSection, startRoutes } from "./start.js"

export { SsoError, ssoErrorStatus, type SsoErrorCode } from "./errors.js"
export { connectionModel, samlAssertionModel, samlRequestModel } from "./models.js"
export type { CertificateInfo, SamlSettings } from "./saml-settings.js"
export type { OrganizationsModule, ServiceProviderKey, SsoOptions } from "./options.js"
export type { Connection, ConnectionInfo, CreateConnectionInput, OidcSettings, Protocol, UpdateConnectionInput } from "./connections.js"

/**
 * The SSO module: add it to `plugins` after the organizations module it names. Its id, `sso`, is
 * where its endpoints live (`<basePath>/sso/…`) and the prefix of its providers' ids
 * (`sso-<connection id>`).
 *
 * Throws a `TypeError` when an option is wrong.
 */
export function sso(options: SsoOptions) {
  const resolved = resolveSsoOptions(options)
  const api = connectionApi(resolved)
  return {
    id: "sso",
    models: [connectionModel, samlRequestModel, samlAssertionModel, ...scimModels],
    providers: connectionProviders(resolved.allowPrivateNetworks),
    routes: { ...startRoutes(resolved.serviceProvider), ...connectionRoutes(api), ...samlRoutes(resolved.serviceProvider), ...pageRoutes(api, resolved.serviceProvider !== null) },
    events: { signIn: provisionOnSignIn(resolved) },
    signInSection,
    messages: ssoMessages,
    services: { "sso/scim/v2": scimService(resolved) },
    api: { ...api, ...scimTokenApi(resolved) },
  } satisfies SesameModule
}
