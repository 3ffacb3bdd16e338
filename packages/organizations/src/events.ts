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

/** What a change is reported through: the logger, and the core's security events when the context has them. */
export type Reporter = Pick<ModuleContext, "logger" | "securityEvent">

/**
 * Reports `event` to `onChange`, if any, and a change of who belongs to an organization as a
 * security event (`security`, for an audit log), beside it.
 */
export async function report(options: ResolvedOptions, reporter: Reporter, event: OrganizationEvent): Promise<void> {
  await securityEventOf(reporter, event)
  if (!options.onChange) return
  try {
    await options.onChange(event)
  } catch (error) {
    reporter.logger.error(new EventError(`organizations: onChange threw on "${event.type}"; the change stands.`, { cause: error }))
  }
}

/**
 * The security event of a change of membership: `organization.created` and `organization.deleted`
 * (an owner made, everyone removed), `organization.member.*` and `organization.invitation.*`
 * (the invited address left out: the invitation's id says which). `userId` is the member's, or,
 * for an invitation answered, who answered; `actorId` the change's (a user, or
 * `scim:<connection id>`). Teams, roles and domains change what members may do, not who they are:
 * they stay `onChange`'s. A failure to report is logged; the change stands.
 */
async function securityEventOf(reporter: Reporter, event: OrganizationEvent): Promise<void> {
  if (!reporter.securityEvent) return
  let input: Parameters<NonNullable<Reporter["securityEvent"]>>[0] | undefined
  const base = { actorId: event.actorId, details: { organizationId: event.organizationId } as Record<string, string | string[]> }
  switch (event.type) {
    case "organization.created":
    case "organization.deleted":
      input = { ...base, type: event.type, userId: event.actorId.startsWith("scim:") ? null : event.actorId }
      break
    case "member.added":
      input = { ...base, type: "organization.member.added", userId: event.userId, details: { ...base.details, memberId: event.memberId, roles: event.roles } }
      break
    case "member.roles-changed":
      input = { ...base, type: "organization.member.roles-changed", userId: event.userId, details: { ...base.details, memberId: event.memberId, roles: event.roles, previous: event.previous } }
      break
    case "member.removed":
    case "member.left":
      input = { ...base, type: `organization.${event.type}`, userId: event.userId, details: { ...base.details, memberId: event.memberId } }
      break
    case "invitation.created":
    case "invitation.resent":
      input = { ...base, type: `organization.${event.type}`, userId: null, details: { ...base.details, invitationId: event.invitationId, roles: event.roles } }
      break
    case "invitation.cancelled":
      input = { ...base, type: "organization.invitation.cancelled", userId: null, details: { ...base.details, invitationId: event.invitationId } }
      break
    case "invitation.declined":
    case "invitation.accepted":
      input = { ...base, type: `organization.${event.type}`, userId: event.actorId, details: { ...base.details, invitationId: event.invitationId } }
      break
  }
  if (!input) return
  try {
    await reporter.securityEvent(input)
  } catch (error) {
    reporter.logger.error(new EventError(`organizations: the security event of "${event.type}" was not sent; the change stands.`, { cause: error }))
  }
}
