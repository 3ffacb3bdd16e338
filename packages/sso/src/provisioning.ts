/**
 * Just-in-time provisioning: whoever a connection signs in becomes a member of its organization,
 * with the connection's roles, by the organizations module's rules (a member keeps their roles;
 * someone who left or was removed stays out until invited again; never `owner`). Only the
 * connection's own organization: its identity provider speaks for no other.
 *
 * @module
 */
import type { ModuleEvents } from "@sesame/core"
import { connectionFrom, providerPrefix } from "./connections.js"
import { connectionModel } from "./models.js"
import type { ResolvedSsoOptions } from "./options.js"

export function provisionOnSignIn(options: ResolvedSsoOptions): NonNullable<ModuleEvents["signIn"]> {
  return async (message, context) => {
    const provider = message.account?.provider
    const userId = message.user?.id
    if (!provider?.startsWith(providerPrefix) || !userId || !context.store) return
    const row = await context.store.findOne(connectionModel, { id: provider.slice(providerPrefix.length) })
    if (!row) return
    const connection = connectionFrom(row)
    const outcome = await options.organizations.join(context, { organizationId: connection.organizationId, userId: String(userId), roles: connection.roles })
    context.logger.debug("sso: provisioning", { connection: connection.id, outcome: outcome.outcome })
  }
}
