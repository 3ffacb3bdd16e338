/**
 * The active organization: the one a user of several works in now, kept in their session (its
 * `organization` part: id, slug, name and the user's roles there). Chosen by the user among their
 * own organizations, for this session only; checked again at every read of a database session and
 * at every re-issue of a JWT (within `session.updateAge`), so a member who is removed loses it,
 * and a session never names an organization its user does not belong to.
 *
 * @module
 */
import type { ModuleRequest, ModuleSessionInput, Store } from "@sesame/core"
import { actorOf, asMember, membershipOf, organizationFrom, storeOf } from "./context.js"
import { idOf } from "./input.js"
import { organizationModel } from "./models.js"

/** The session's `organization`: the active organization and the user's roles in it. */
export type ActiveOrganization = {
  id: string
  slug: string
  name: string
  roles: string[]
}

/** The active organization for `userId` if `previous` names one they still belong to. */
async function stillActive(store: Store, userId: string, previous: unknown): Promise<ActiveOrganization | undefined> {
  const id = (previous as { id?: unknown } | null | undefined)?.id
  if (typeof id !== "string") return undefined
  const membership = await membershipOf(store, id, userId)
  const row = membership && (await store.findOne(organizationModel, { id }))
  if (!membership || !row) return undefined
  const { slug, name } = organizationFrom(row)
  return { id, slug, name, roles: membership.roles }
}

/** The module's `session`: what the session holds, if it still holds. */
export async function activeSessionPart({ store, user, previous }: ModuleSessionInput): Promise<ActiveOrganization | undefined> {
  if (!store || !user.id) return undefined
  return stillActive(store, user.id, previous)
}

/**
 * Makes `organizationId` (one of the user's organizations) the session's active organization;
 * `null` clears it. Returns the new part (null when cleared).
 */
export async function setActiveOrganization(request: ModuleRequest, organizationId: string | null): Promise<ActiveOrganization | null> {
  const actor = await actorOf(request)
  if (organizationId === null) {
    await request.setSessionPart(undefined)
    return null
  }
  const store = storeOf(request)
  const { organization, membership } = await asMember(store, actor, idOf(organizationId, "organizationId"))
  const active: ActiveOrganization = { id: organization.id, slug: organization.slug, name: organization.name, roles: membership.roles }
  await request.setSessionPart({ ...active })
  return active
}

/**
 * The claims of the active organization in an API token issued for the session: `org_id` and
 * `org_roles` (the user's roles there when the token was made). Checked like the session, so a
 * removed member's next token has none; a token already issued keeps them until it expires
 * (`apiTokens.maxAge`): an API that must know at once asks `hasPermission`.
 */
export function activeTokenClaims({ part }: { part: unknown }): { org_id: string; org_roles: string[] } | undefined {
  const active = part as Partial<ActiveOrganization> | undefined
  return typeof active?.id === "string" && Array.isArray(active.roles) ? { org_id: active.id, org_roles: active.roles } : undefined
}
