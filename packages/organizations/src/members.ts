/**
 * An organization's members: listed by any member; roles changed and members removed by those
 * whose roles grant it (`member: ["update"]`, `member: ["remove"]`), and only over members whose
 * roles theirs cover, so an admin can neither demote nor remove an owner, nor make anyone more
 * than an admin. The last owner is never demoted or removed.
 *
 * @module
 */
import type { ModuleRequest, Store } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { actorOf, asMember, changedMeanwhile, deleteMembership, membershipFrom, membershipOf, storeOf, takeAwayOwner, userViewOf, withGrant, type Actor, type Deps, type Membership } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf, roleNamesOf } from "./input.js"
import { memberModel } from "./models.js"
import { rolesIn } from "./stored-roles.js"

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
  return Promise.all(
    rows.map(async (row) => {
      const member = membershipFrom(row)
      return { id: member.id, userId: member.userId, roles: member.roles, createdAt: member.createdAt, user: await userViewOf(request, member.userId) }
    }),
  )
}

/**
 * Changes member `memberId` of `organizationId` for `actor`, whose roles must grant `wanted`:
 * `given` roles, or removal (`null`). Everything is read again and checked inside one transaction
 * before the write, so that a concurrent change (the target made an owner meanwhile, the actor
 * demoted) is seen: the target's roles, and any roles given, within the actor's own; the last owner
 * kept. Returns the member before the change.
 */
async function changeMember(deps: Deps, store: Store, actor: Actor, organizationId: string, memberId: string, wanted: Grants<Statements>, given: string[] | null): Promise<Membership> {
  return store.transaction(async (tx) => {
    const mine = await membershipOf(tx, organizationId, actor.id)
    if (!mine) throw new OrganizationError("NotFound", "No such organization.")
    const book = await rolesIn(deps, tx, organizationId)
    if (!book.can(mine.roles, wanted)) throw new OrganizationError("Forbidden", "Your roles in this organization do not allow this.")
    const row = await tx.findOne(memberModel, { id: memberId, organizationId })
    if (!row) throw new OrganizationError("NotFound", "No such member.")
    const target = membershipFrom(row)
    if (!book.mayGive(mine.roles, target.roles) || (given && !book.mayGive(mine.roles, given))) {
      throw new OrganizationError("Forbidden", "You cannot give or take away roles beyond your own.")
    }
    const version = given?.includes("owner") ? target.version : await takeAwayOwner(tx, target)
    // Only the row as it was read: a store without isolation (memory, Redis) still refuses a stale write.
    const asRead = { id: target.id, organizationId, version }
    if (!given) await deleteMembership(tx, target, version)
    else if ((await tx.update(memberModel, asRead, { roles: given, version: version + 1 })) !== 1) throw changedMeanwhile()
    return target
  })
}

/** Sets a member's roles (`member: ["update"]`); see the module's rules above. */
export async function setMemberRoles(deps: Deps, request: ModuleRequest, organizationId: string, memberId: string, roles: string[]): Promise<MemberInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { book } = await withGrant(deps, store, actor, id, { member: ["update"] })
  const given = roleNamesOf(roles)
  const unknown = book.unknown(given)
  if (unknown.length > 0) throw new OrganizationError("InvalidInput", `No such role: ${unknown.join(", ")}.`)
  const target = await changeMember(deps, store, actor, id, idOf(memberId, "memberId"), { member: ["update"] }, given)
  await report(deps.options, request, { type: "member.roles-changed", organizationId: id, actorId: actor.id, memberId: target.id, userId: target.userId, roles: given, previous: target.roles })
  return { id: target.id, userId: target.userId, roles: given, createdAt: target.createdAt, user: await userViewOf(request, target.userId) }
}

/** Removes a member (`member: ["remove"]`); to leave, a member uses `leaveOrganization`. */
export async function removeMember(deps: Deps, request: ModuleRequest, organizationId: string, memberId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, { member: ["remove"] })
  const target = await changeMember(deps, store, actor, id, idOf(memberId, "memberId"), { member: ["remove"] }, null)
  await report(deps.options, request, { type: "member.removed", organizationId: id, actorId: actor.id, memberId: target.id, userId: target.userId })
}
