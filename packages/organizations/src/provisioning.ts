/**
 * What another party's provisioning (an organization's identity provider, through a module's SCIM
 * service) does to memberships besides {@link join}: it removes a member it deprovisions, and
 * changes a member's roles as the IdP's groups change. Each is stored here, with the same rules as
 * the module's own actions, and reported to `onChange` like them, with the `actorId` the caller
 * names (`scim:<connection id>`), so that an audit trail, a seat count or a permissions cache
 * hears what the IdP did as it hears what an admin does.
 *
 * - Deprovisioning deletes the row as it was read, in one transaction, and notes the departure as
 *   removing a member does, so that a verified domain's auto-join does not bring them back; it
 *   answers the instant noted, which later names that departure (see {@link forgetDeparture}). An
 *   owner is never deprovisioned: an admin cannot remove one either, and the IdP never makes one.
 * - Roles are given and taken one change at a time against the row as read (a concurrent change is
 *   read again, a few times): never `owner` either way, never a role the organization does not
 *   define, and never the last role a member holds. Nothing is written nor reported when nothing
 *   changes.
 *
 * @module
 */
import type { Store } from "@sesame/core"
import { deleteMembership, membershipOf, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report, type Reporter } from "./events.js"
import { departureModel, memberModel } from "./models.js"
import { rolesIn } from "./stored-roles.js"

/** What {@link deprovision} did: `removed` (with the instant of the departure noted), or why not. */
export type DeprovisionOutcome = { outcome: "removed"; memberId: string; at: Date } | { outcome: "not-member" | "owner" | "conflict" }

/** What {@link provisionRoles} did: `changed` (the roles now, and before), or why nothing was. */
export type ProvisionRolesOutcome = { outcome: "changed"; memberId: string; roles: string[]; previous: string[] } | { outcome: "unchanged" | "not-member" | "conflict" }

/** Who and what a provisioning change names: `actorId` is the events' (`scim:<connection id>`). */
export interface ProvisioningInput {
  organizationId: string
  userId: string
  actorId: string
}

/**
 * Removes `userId` from `organizationId` for its identity provider (see the module comment):
 * `owner` when they are an owner (nothing changes), `conflict` when their membership changed
 * between the read and the write (nothing changes; read again and retry).
 */
export async function deprovision(deps: Deps, store: Store, reporter: Reporter, input: ProvisioningInput): Promise<DeprovisionOutcome> {
  const { organizationId, userId, actorId } = input
  let outcome: DeprovisionOutcome
  try {
    outcome = await store.transaction(async (tx): Promise<DeprovisionOutcome> => {
      const member = await membershipOf(tx, organizationId, userId)
      if (!member) return { outcome: "not-member" }
      if (member.roles.includes("owner")) return { outcome: "owner" }
      return { outcome: "removed", memberId: member.id, at: await deleteMembership(tx, member, member.version) }
    })
  } catch (error) {
    // Thrown, not answered, inside the transaction, so that a store with transactions rolls back.
    if (error instanceof OrganizationError && error.code === "Conflict") return { outcome: "conflict" }
    throw error
  }
  if (outcome.outcome === "removed") await report(deps.options, reporter, { type: "member.removed", organizationId, actorId, memberId: outcome.memberId, userId })
  return outcome
}

/** Concurrent changes read again this many times before `conflict`. */
const roleAttempts = 3

/**
 * Gives `add` and takes `remove` from `userId`'s roles in `organizationId` for its identity
 * provider (see the module comment): `remove` first, then `add`, the roles kept in their order
 * with those added last. `not-member` for someone who is not a member (they get the roles when
 * they join), `unchanged` when the roles would stay the same or none would be left.
 */
export async function provisionRoles(deps: Deps, store: Store, reporter: Reporter, input: ProvisioningInput & { add?: readonly string[]; remove?: readonly string[] }): Promise<ProvisionRolesOutcome> {
  const { organizationId, userId, actorId } = input
  const book = await rolesIn(deps, store, organizationId)
  const add = (input.add ?? []).filter((role) => role !== "owner" && book.unknown([role]).length === 0)
  const remove = (input.remove ?? []).filter((role) => role !== "owner")
  for (let attempt = 1; ; attempt++) {
    const member = await membershipOf(store, organizationId, userId)
    if (!member) return { outcome: "not-member" }
    const previous = member.roles
    const roles = [...new Set([...previous.filter((role) => !remove.includes(role)), ...add])]
    const same = roles.length === new Set(previous).size && roles.every((role) => previous.includes(role))
    // Never a member without a role: the last one stays.
    if (same || roles.length === 0) return { outcome: "unchanged" }
    const asRead = { id: member.id, organizationId, version: member.version }
    if ((await store.update(memberModel, asRead, { roles, version: member.version + 1 })) === 1) {
      await report(deps.options, reporter, { type: "member.roles-changed", organizationId, actorId, memberId: member.id, userId, roles, previous })
      return { outcome: "changed", memberId: member.id, roles, previous }
    }
    if (attempt === roleAttempts) return { outcome: "conflict" }
  }
}

/**
 * Takes away `userId`'s departure from `organizationId` only when it was noted at instant `at`
 * (the one {@link deprovision} answered): whether it did. A later departure (they left, or an
 * admin removed them, after the deprovisioning) stays, and keeps them out of {@link join}.
 */
export async function forgetDeparture(store: Store, input: { organizationId: string; userId: string; at: Date }): Promise<boolean> {
  const { organizationId, userId, at } = input
  const departure = await store.findOne(departureModel, { organizationId, userId })
  if (!(departure?.at instanceof Date) || departure.at.getTime() !== at.getTime()) return false
  await store.delete(departureModel, { organizationId, userId })
  return true
}
