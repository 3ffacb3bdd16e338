/**
 * The module's options, checked when the configuration is written.
 *
 * @module
 */
import type { ModuleContext } from "@sesame/core"
import type { JoinOutcome } from "@sesame/organizations"

/** What the module needs of the organizations module: its membership rules and its permission check. */
export interface OrganizationsModule {
  id: string
  api: { hasPermission(request: never, organizationId: string, permissions: { organization: ["update"] }): Promise<boolean> }
  join(context: ModuleContext, input: { organizationId: string; userId: string; roles: readonly string[] }): Promise<JoinOutcome>
  refusedRoles(request: never, organizationId: string, roles: readonly string[]): Promise<string | null>
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
}

export interface ResolvedSsoOptions {
  organizations: OrganizationsModule
  defaultRoles: readonly string[]
  allowPrivateNetworks: boolean
}

export function resolveSsoOptions(options: SsoOptions): ResolvedSsoOptions {
  const orgs = options?.organizations
  if (!orgs || typeof orgs !== "object" || typeof orgs.join !== "function" || typeof orgs.refusedRoles !== "function" || typeof orgs.api?.hasPermission !== "function") {
    throw new TypeError("sso: `organizations` must be the organizations module of the same configuration (`organizations(...)` from @sesame/organizations).")
  }
  const defaultRoles = options.defaultRoles ?? ["member"]
  if (!Array.isArray(defaultRoles) || defaultRoles.length === 0 || defaultRoles.some((role) => typeof role !== "string" || role === "owner")) {
    throw new TypeError("sso: `defaultRoles` must list role names, and never `owner`.")
  }
  if (options.allowPrivateNetworks !== undefined && typeof options.allowPrivateNetworks !== "boolean") throw new TypeError("sso: `allowPrivateNetworks` must be a boolean.")
  return { organizations: orgs, defaultRoles: [...defaultRoles], allowPrivateNetworks: options.allowPrivateNetworks === true }
}
