/**
 * What provisioning does to the organization's membership, through the organizations module's
 * functions for provisioning only (`join`, `deprovision`, `provisionRoles`, `forgetDeparture`),
 * which store each change by its rules and report it to the app's `onChange` with
 * `actorId: "scim:<connection id>"`; this module never writes the organizations module's models:
 *
 * - activation makes the user a member by `join`'s rules (the connection's roles and its groups'
 *   roles; unknown roles and `owner` dropped; a member unchanged; someone who left or was removed
 *   stays out);
 * - deactivation removes the membership as removing a member does (the row as read, in one
 *   transaction, with a departure noted so that a verified domain's auto-join does not bring them
 *   back), and ends the user's sessions. An owner is never deprovisioned by the IdP (an admin
 *   cannot remove one either, and the connection never makes owners): `400 mutability`;
 * - reactivation takes away the departure note only when it is this resource's own (noted at the
 *   instant its deactivation recorded), then joins again: someone who left, or whom an admin
 *   removed, stays out.
 *
 * A group of the connection whose `displayName` names a role of the organization that the token
 * lets groups give (`admin`, `member` and the organization's own roles its maker could give; see
 * `tokens.ts`) adds that role to its members; leaving the group takes it away unless the
 * connection gives it or another of its groups does. Never `owner`.
 *
 * @module
 */
import { op, type StoredRow } from "@sesame/core"
import { builtInRoles, roleModel } from "@sesame/organizations"
import type { Scope } from "./auth.js"
import { heldElsewhere } from "../domains.js"
import { ScimError } from "./errors.js"
import { scimGroupModel, scimUserModel } from "./models.js"

/** Who the events name for what the connection's provisioning does. */
const actorOf = (scope: Scope) => `scim:${scope.connectionId}`

const changedMeanwhile = () => new ScimError(409, undefined, "The membership changed meanwhile: try again.")

export function membersOf(group: StoredRow): string[] {
  return Array.isArray(group.members) ? group.members.filter((id): id is string => typeof id === "string") : []
}

/** The role a group named `displayName` gives in the scope's organization, or null. */
async function roleOfGroup(scope: Scope, displayName: string): Promise<string | null> {
  const name = displayName.trim().toLowerCase()
  if (name === "owner" || !(scope.groupRoles.includes(name) || scope.roles.includes(name))) return null
  // A role of the organization's own may have been deleted since the token was made.
  if (builtInRoles.some((role) => role === name) || scope.roles.includes(name)) return name
  return (await scope.store.findOne(roleModel, { organizationId: scope.organizationId, name })) ? name : null
}

/** The roles `scimId` holds through the connection: its own, and those of its groups. */
async function rolesThrough(scope: Scope, scimId: string): Promise<string[]> {
  const groups = await scope.store.findMany(scimGroupModel, { where: { connectionId: scope.connectionId, organizationId: scope.organizationId }, limit: 1000 })
  const roles = new Set(scope.roles)
  for (const group of groups) {
    if (!membersOf(group).includes(scimId)) continue
    const role = await roleOfGroup(scope, String(group.displayName))
    if (role) roles.add(role)
  }
  return [...roles]
}

/**
 * Whether the user's domain has changed hands: another organization proved it since, so this
 * connection's provisioning no longer speaks for them (no joining them, no signing them out), as
 * its sign-ins no longer do (`stillSpeaksFor`).
 */
async function changedHands(scope: Scope, userId: string): Promise<boolean> {
  const user = await scope.context.users?.get(userId)
  return heldElsewhere(scope.store, user?.email, scope.organizationId)
}

/** Makes the resource's user a member (see the module comment); its own departure note taken away first. */
export async function activate(scope: Scope, resource: StoredRow): Promise<void> {
  const { organizationId } = scope
  const organizations = scope.options.organizations
  const userId = String(resource.userId)
  if (await changedHands(scope, userId)) {
    scope.context.logger.debug("sso: SCIM activation skipped: another organization holds the user's domain", { connection: scope.connectionId })
    return
  }
  if (resource.departedAt instanceof Date) await organizations.forgetDeparture(scope.context, { organizationId, userId, at: resource.departedAt })
  const roles = await rolesThrough(scope, String(resource.id))
  const outcome = await organizations.join(scope.context, { organizationId, userId, roles, actorId: actorOf(scope) })
  scope.context.logger.debug("sso: SCIM activation", { connection: scope.connectionId, outcome: outcome.outcome })
}

/**
 * Removes the resource's user from the organization (see the module comment): the instant of the
 * departure it noted, or null when they were not a member. Their sessions end either way.
 */
export async function deactivate(scope: Scope, resource: StoredRow): Promise<Date | null> {
  const userId = String(resource.userId)
  const done = await scope.options.organizations.deprovision(scope.context, { organizationId: scope.organizationId, userId, actorId: actorOf(scope) })
  if (done.outcome === "owner") {
    throw new ScimError(400, "mutability", "An owner of the organization is not deprovisioned by its identity provider: make them something else than an owner there first.")
  }
  if (done.outcome === "conflict") throw changedMeanwhile()
  if (!scope.context.users) throw new TypeError("sso: no adapter to end sessions with.")
  // Only the membership of this organization ends for someone whose domain another organization now holds.
  if (!(await changedHands(scope, userId))) await scope.context.users.endSessions(userId)
  return done.outcome === "removed" ? done.at : null
}

/**
 * Adds `role` to, or takes it from, the memberships of `userIds` (only members: the others get it
 * when they join), through the organizations module, which keeps the last role and reports a change.
 */
async function setRole(scope: Scope, userIds: readonly string[], role: string, give: boolean): Promise<void> {
  const organizations = scope.options.organizations
  for (const userId of userIds) {
    const input = { organizationId: scope.organizationId, userId, actorId: actorOf(scope), ...(give ? { add: [role] } : { remove: [role] }) }
    if ((await organizations.provisionRoles(scope.context, input)).outcome === "conflict") throw changedMeanwhile()
  }
}

/** The Sesame users of the connection's resources `scimIds`. */
async function usersOf(scope: Scope, scimIds: readonly string[]): Promise<string[]> {
  if (scimIds.length === 0) return []
  const rows = await scope.store.findMany(scimUserModel, { where: { connectionId: scope.connectionId, organizationId: scope.organizationId, id: op.in([...scimIds]) } })
  return rows.map((row) => String(row.userId))
}

/**
 * After a group changed from `before` to `after` (either null when it did not exist): the role
 * its name gives, added to its members now, and taken from those who had it only through it.
 */
export async function groupChanged(scope: Scope, before: StoredRow | null, after: StoredRow | null): Promise<void> {
  const oldRole = before ? await roleOfGroup(scope, String(before.displayName)) : null
  const newRole = after ? await roleOfGroup(scope, String(after.displayName)) : null
  const oldMembers = before ? membersOf(before) : []
  const newMembers = after ? membersOf(after) : []
  if (oldRole) {
    const leaving = oldRole === newRole ? oldMembers.filter((id) => !newMembers.includes(id)) : oldMembers
    const stillHeld = await Promise.all(leaving.map(async (id) => (await rolesThrough(scope, id)).includes(oldRole)))
    await setRole(scope, await usersOf(scope, leaving.filter((_, i) => !stillHeld[i])), oldRole, false)
  }
  if (newRole) {
    const joining = newRole === oldRole ? newMembers.filter((id) => !oldMembers.includes(id)) : newMembers
    const active = await scope.store.findMany(scimUserModel, { where: { connectionId: scope.connectionId, organizationId: scope.organizationId, id: op.in(joining), active: true } })
    await setRole(scope, active.map((row) => String(row.userId)), newRole, true)
  }
}
