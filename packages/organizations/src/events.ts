/**
 * The changes the module reports to the app's `onChange`, after they are stored: for an audit
 * trail, a notification, a cache to clear. A handler that throws is logged; the change stands.
 *
 * @module
 */
import type { ModuleContext } from "@sesame/core"
import { EventError } from "@sesame/core/errors"
import type { ResolvedOptions } from "./options.js"
import type { RoleEvent } from "./custom-roles.js"
import type { DomainEvent } from "./domains.js"
import type { TeamEvent } from "./teams.js"

/**
 * One change: its `type`, the organization, who made it (`actorId`), and what changed.
 *
 * `actorId` is a user's id, or `scim:<connection id>` when an identity provider's SCIM
 * provisioning made the change (a member added, removed on deprovisioning, or their roles changed
 * by the IdP's groups): no user made those, and the prefix keeps them apart from any user's id.
 */
export type OrganizationEvent = { organizationId: string; actorId: string } & (
  | { type: "organization.created" | "organization.deleted" }
  | { type: "organization.updated"; changed: string[] }
  | { type: "member.added"; memberId: string; userId: string; roles: string[] }
  | { type: "member.roles-changed"; memberId: string; userId: string; roles: string[]; previous: string[] }
  | { type: "member.removed" | "member.left"; memberId: string; userId: string }
  | { type: "invitation.created" | "invitation.resent"; invitationId: string; email: string; roles: string[] }
  | { type: "invitation.cancelled" | "invitation.declined" | "invitation.accepted"; invitationId: string; email: string }
) | TeamEvent | DomainEvent | RoleEvent

/** Reports `event` to `onChange`, if any. */
export async function report(options: ResolvedOptions, logger: ModuleContext["logger"], event: OrganizationEvent): Promise<void> {
  if (!options.onChange) return
  try {
    await options.onChange(event)
  } catch (error) {
    logger.error(new EventError(`organizations: onChange threw on "${event.type}"; the change stands.`, { cause: error }))
  }
}
