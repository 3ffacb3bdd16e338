/**
 * Whether the signed-in user's roles in an organization grant an action: read from their stored
 * membership at every check, not from the session (whose roles a JWT may carry a while after they
 * changed).
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { actorOf, membershipOf, storeOf, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { isId } from "./input.js"
import { rolesIn } from "./stored-roles.js"

/**
 * True when the signed-in user is a member of `organizationId` whose roles grant every action of
 * `permissions`; false otherwise (not signed in, not a member, not granted, or `permissions` naming
 * what the statements do not have).
 */
export async function hasPermission(deps: Deps, request: ModuleRequest, organizationId: string, permissions: Grants<Statements>): Promise<boolean> {
  const actor = await actorOf(request).catch((error: unknown) => (error instanceof OrganizationError ? null : Promise.reject(error)))
  if (!actor || !isId(organizationId)) return false
  const membership = await membershipOf(storeOf(request), organizationId, actor.id)
  return membership !== null && (await rolesIn(deps, storeOf(request), membership.organizationId)).can(membership.roles, permissions)
}
