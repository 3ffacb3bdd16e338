/**
 * An organization's members: listed by any member; roles changed and members removed by those
 * whose roles grant it (`member: ["update"]`, `member: ["remove"]`), and only over members whose
 * roles theirs cover, so an admin can neither demote nor remove an owner, nor make anyone more
 * than an admin. The last owner is never demoted or removed.
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import { actorOf, asMember, membershipFrom, ownerCount, storeOf, usersOf, withGrant, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf, roleNamesOf } from "./input.js"
import { memberModel } from "./models.js"
import { lastOwner, removeMembership } from "./organizations.js"

/** A member as lists show them. */
export interface MemberInfo {
  id: string
  userId: string
  roles: string[]
  createdAt: Date
  user: { name: string | null; email: string | null; image: string | null }
}

/** The members of an organization the signed-in user belongs to, oldest first. */
export async function listMembers(request: ModuleRequest, organizationId: string): Promise<MemberInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await asMember(store, actor, id)
  const rows = await store.findMany(memberModel, { where: { organizationId: id }, orderBy: [{ field: "createdAt" }], limit: 1000 })
  const users = usersOf(request)
  return Promise.all(
    rows.map(async (row) => {
      const member = membershipFrom(row)
      const user = await users.get(member.userId)
      return { id: member.id, userId: member.userId, roles: member.roles, createdAt: member.createdAt, user: { name: user?.name ?? null, email: user?.email ?? null, image: user?.image ?? null } }
    }),
  )
}

/** The member `memberId` of `organizationId` (a member of another organization is `NotFound`). */
async function memberIn(request: ModuleRequest, organizationId: string, memberId: string) {
  const row = await storeOf(request).findOne(memberModel, { id: idOf(memberId, "memberId"), organizationId })
  if (!row) throw new OrganizationError("NotFound", "No such member.")
  return membershipFrom(row)
}

/** Sets a member's roles (`member: ["update"]`); see the module's rules above. */
export async function setMemberRoles(deps: Deps, request: ModuleRequest, organizationId: string, memberId: string, roles: string[]): Promise<MemberInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership: mine } = await withGrant(deps, store, actor, id, { member: ["update"] })
  const given = roleNamesOf(roles)
  const unknown = deps.book.unknown(given)
  if (unknown.length > 0) throw new OrganizationError("InvalidInput", `No such role: ${unknown.join(", ")}.`)
  const target = await memberIn(request, id, memberId)
  // Both what the member holds now and what they are given must be within the actor's own roles.
  if (!deps.book.mayGive(mine.roles, target.roles) || !deps.book.mayGive(mine.roles, given)) {
    throw new OrganizationError("Forbidden", "You cannot give or take away roles beyond your own.")
  }
  if (target.roles.includes("owner") && !given.includes("owner")) {
    await store.transaction(async (tx) => {
      if ((await ownerCount(tx, id)) <= 1) throw lastOwner()
      await tx.update(memberModel, { id: target.id, organizationId: id }, { roles: given })
      if ((await ownerCount(tx, id)) < 1) throw lastOwner()
    })
  } else {
    await store.update(memberModel, { id: target.id, organizationId: id }, { roles: given })
  }
  await report(deps.options, request.logger, { type: "member.roles-changed", organizationId: id, actorId: actor.id, memberId: target.id, userId: target.userId, roles: given, previous: target.roles })
  const user = await usersOf(request).get(target.userId)
  return { id: target.id, userId: target.userId, roles: given, createdAt: target.createdAt, user: { name: user?.name ?? null, email: user?.email ?? null, image: user?.image ?? null } }
}

/** Removes a member (`member: ["remove"]`); to leave, a member uses `leaveOrganization`. */
export async function removeMember(deps: Deps, request: ModuleRequest, organizationId: string, memberId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership: mine } = await withGrant(deps, store, actor, id, { member: ["remove"] })
  const target = await memberIn(request, id, memberId)
  if (!deps.book.mayGive(mine.roles, target.roles)) throw new OrganizationError("Forbidden", "You cannot remove a member whose roles are beyond your own.")
  await removeMembership(store, target.id, id, target.roles)
  await report(deps.options, request.logger, { type: "member.removed", organizationId: id, actorId: actor.id, memberId: target.id, userId: target.userId })
}
