/**
 * A user joining an organization on another party's word rather than an invitation: a verified
 * domain's auto-join, or another module's provisioning (an organization's own identity provider
 * signing its people in). The same rules for both: roles the organization does not define, and
 * `owner`, are dropped; a member keeps their roles; someone who left or was removed stays out
 * (only an invitation brings them back).
 *
 * @module
 */
import { StoreConflict, type ModuleRequest, type Store } from "@sesame/core"
import { actorOf, membershipOf, storeOf, type Deps } from "./context.js"
import { report, type Reporter } from "./events.js"
import { departureModel, memberModel } from "./models.js"
import { rolesIn } from "./stored-roles.js"

/** What {@link join} did: `added` (with the roles given), or why not. */
export type JoinOutcome = { outcome: "added"; memberId: string; roles: string[] } | { outcome: "member" | "departed" | "no-roles" }

/**
 * Makes `userId` a member of `organizationId` with `roles` (see the module comment for what is
 * refused). `actorId`, the event's, is the user joining unless the caller names who made them
 * join (`scim:<connection id>` for an identity provider's SCIM provisioning).
 */
export async function join(deps: Deps, store: Store, reporter: Reporter, input: { organizationId: string; userId: string; roles: readonly string[]; actorId?: string }): Promise<JoinOutcome> {
  const { organizationId, userId, actorId = userId } = input
  const book = await rolesIn(deps, store, organizationId)
  const roles = [...new Set(input.roles)].filter((role) => role !== "owner" && book.unknown([role]).length === 0)
  if (roles.length === 0) return { outcome: "no-roles" }
  if (await membershipOf(store, organizationId, userId)) return { outcome: "member" }
  if (await store.findOne(departureModel, { organizationId, userId })) return { outcome: "departed" }
  const memberId = crypto.randomUUID()
  try {
    await store.create(memberModel, { id: memberId, organizationId, userId, roles, createdAt: new Date() })
  } catch (error) {
    if (error instanceof StoreConflict) return { outcome: "member" } // another sign-in at the same moment
    throw error
  }
  await report(deps.options, reporter, { type: "member.added", organizationId, actorId, memberId, userId, roles })
  return { outcome: "added", memberId, roles }
}

/**
 * Why the signed-in user may not have others hold `roles` in `organizationId` by another party's
 * word (a connection's provisioning), or null when they may: each role defined there, never
 * `owner`, and none beyond what the user's own roles grant (the rule of invitations and auto-join).
 */
export async function refusedRoles(deps: Deps, request: ModuleRequest, organizationId: string, roles: readonly string[]): Promise<string | null> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const membership = await membershipOf(store, organizationId, actor.id)
  if (!membership) return "not a member"
  const book = await rolesIn(deps, store, organizationId)
  const unknown = book.unknown([...roles])
  if (unknown.length > 0) return `no such role: ${unknown.join(", ")}`
  if (roles.includes("owner")) return "owner is never given this way"
  if (!book.mayGive(membership.roles, [...roles])) return "beyond your own roles"
  return null
}
