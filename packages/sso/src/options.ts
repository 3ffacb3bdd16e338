/**
 * The module's options, checked when the configuration is written.
 *
 * @module
 */
import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto"
import type { ModuleContext } from "@sesame/core"
import type { DeprovisionOutcome, JoinOutcome, ProvisioningInput, ProvisionRolesOutcome } from "@sesame/organizations"

/**
 * What the module needs of the organizations module: its permission check, its membership rules
 * for sign-ins (`join`, `refusedRoles`), and the functions an identity provider's provisioning
 * changes memberships through, which report each change to the app's `onChange`.
 */
export interface OrganizationsModule {
  id: string
  api: { hasPermission(request: never, organizationId: string, permissions: { organization: ["update"] }): Promise<boolean> }
  join(context: ModuleContext, input: { organizationId: string; userId: string; roles: readonly string[]; actorId?: string }): Promise<JoinOutcome>
  refusedRoles(request: never, organizationId: string, roles: readonly string[]): Promise<string | null>
  deprovision(context: ModuleContext, input: ProvisioningInput): Promise<DeprovisionOutcome>
  provisionRoles(context: ModuleContext, input: ProvisioningInput & { add?: readonly string[]; remove?: readonly string[] }): Promise<ProvisionRolesOutcome>
  forgetDeparture(context: ModuleContext, input: { organizationId: string; userId: string; at: Date }): Promise<boolean>
}

export interface SsoOptions {
  /** The organizations module of the same configuration (`organizations(...)`): connections belong to its organizations. */
  organizations: OrganizationsModule
  /** The roles a user provisioned by a connection gets when the connection names none. Default `["member"]`. */
  defaultRoles?: readonly string[]
  /**
   * Lets a connection's identity provider be on a private network or this machine (an IdP inside
   * the company's network; a test's). Off by default: an organization's admin could otherwise make
   * the app's server call into its own network.
   */
  allowPrivateNetworks?: boolean
  /**
   * This app's key pair as a SAML service provider, PEM: an unencrypted RSA private key of at least
   * 2048 bits and a certificate of its public key (self-signed is what IdPs expect). With it, a
   * SAML connection may sign its AuthnRequests (`signRequests`), encrypted assertions are
   * decrypted, and every connection's metadata carries the certificate for both uses.
   *
   * An option of the app, not of each connection: the app is one service provider, whatever
   * organization signs in, and the private key stays in the app's environment or secret store,
   * never in the database beside the connections an organization's admin can edit.
   *
   * @example
   * ```sh
   * openssl req -x509 -newkey rsa:3072 -nodes -sha256 -days 3650 -subj "/CN=app.example" -keyout sp-key.pem -out sp-cert.pem
   * ```
   */
  serviceProvider?: ServiceProviderKey
}

/** The service provider's key pair (`SsoOptions.serviceProvider`), PEM. */
export interface ServiceProviderKey {
  privateKey: string
  certificate: string
}

export interface ResolvedSsoOptions {
  organizations: OrganizationsModule
  defaultRoles: readonly string[]
  allowPrivateNetworks: boolean
  /** Checked, and normalized to PKCS#8 and one PEM certificate; null without the option. */
  serviceProvider: ServiceProviderKey | null
}

export function resolveSsoOptions(options: SsoOptions): ResolvedSsoOptions {
  const orgs = options?.organizations
  const functions = ["join", "refusedRoles", "deprovision", "provisionRoles", "forgetDeparture"] as const
  if (!orgs || typeof orgs !== "object" || functions.some((name) => typeof orgs[name] !== "function") || typeof orgs.api?.hasPermission !== "function") {
    throw new TypeError("sso: `organizations` must be the organizations module of the same configuration (`organizations(...)` from @sesame/organizations).")
  }
  const defaultRoles = options.defaultRoles ?? ["member"]
  if (!Array.isArray(defaultRoles) || defaultRoles.length === 0 || defaultRoles.some((role) => typeof role !== "string" || role === "owner")) {
    throw new TypeError("sso: `defaultRoles` must list role names, and never `owner`.")
  }
  if (options.allowPrivateNetworks !== undefined && typeof options.allowPrivateNetworks !== "boolean") throw new TypeError("sso: `allowPrivateNetworks` must be a boolean.")
  return {
    organizations: orgs,
    defaultRoles: [...defaultRoles],
    allowPrivateNetworks: options.allowPrivateNetworks === true,
    serviceProvider: options.serviceProvider === undefined ? null : serviceProviderKey(options.serviceProvider),
  }
}

/** The smallest RSA key accepted: what NIST SP 800-131A allows, and what IdP consoles take. */
const minimumModulusBits = 2048

/**
 * Checks the key pair now, so that a wrong one fails when the configuration is written rather than
 * at an IdP's sign-in: the key must be an unencrypted RSA private key (RSA signs the requests as
 * rsa-sha256 and IdPs encrypt to it with RSA-OAEP), the certificate must parse, and must be the
 * certificate of that very key. The messages never quote the key.
 */
function serviceProviderKey(value: unknown): ServiceProviderKey {
  const given = value as Partial<Record<keyof ServiceProviderKey, unknown>> | null
  if (!given || typeof given !== "object") throw new TypeError("sso: `serviceProvider` must be `{ privateKey, certificate }`, both PEM.")
  if (typeof given.privateKey !== "string") throw new TypeError("sso: `serviceProvider.privateKey` must be a PEM private key (a string).")
  if (typeof given.certificate !== "string") throw new TypeError("sso: `serviceProvider.certificate` must be a PEM certificate (a string).")
  let key: KeyObject
  try {
    key = createPrivateKey({ key: given.privateKey, format: "pem" })
  } catch {
    throw new TypeError("sso: `serviceProvider.privateKey` is not an unencrypted PEM private key.")
  }
  if (key.asymmetricKeyType !== "rsa" || (key.asymmetricKeyDetails?.modulusLength ?? 0) < minimumModulusBits) {
    throw new TypeError(`sso: \`serviceProvider.privateKey\` must be an RSA key of at least ${minimumModulusBits} bits.`)
  }
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(given.certificate)
  } catch {
    throw new TypeError("sso: `serviceProvider.certificate` is not a PEM X.509 certificate.")
  }
  if (!certificate.checkPrivateKey(key)) throw new TypeError("sso: `serviceProvider.certificate` is not the certificate of `serviceProvider.privateKey`.")
  return { privateKey: key.export({ type: "pkcs8", format: "pem" }) as string, certificate: certificate.toString() }
}
