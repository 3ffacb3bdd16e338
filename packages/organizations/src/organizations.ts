/**
 * Organizations themselves: create (the creator becomes its owner), list the user's, read one,
 * change it, delete it (an owner, after a recent sign-in), leave it (never its last owner).
 *
 * @module
 */
import { StoreConflict, type ModuleRequest, type Store, type StoredRow } from "@sesame/core"
import { actorOf, asMember, deleteMembership, organizationFrom, rolesFrom, storeOf, takeAwayOwner, withGrant, type Deps, type Membership, type Organization } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf, logoOf, metadataOf, nameOf, slugFrom, slugOf } from "./input.js"
import { memberModel, organizationModel } from "./models.js"

/** An organization with the signed-in user's roles in it. */
export interface OrganizationWithRoles extends Organization {
  roles: string[]
}

/** What creating an organization takes. */
export interface CreateOrganizationInput {
  name: string
  /** Default: made from the name (with a few random characters when taken). */
  slug?: string
  logo?: string | null
  metadata?: Record<string, unknown> | null
}

/** What changing one takes: each field left out stays as it is. */
export interface UpdateOrganizationInput {
  name?: string
  slug?: string
  logo?: string | null
  metadata?: Record<string, unknown> | null
}

/** The input object of a server function; anything else (null, a string) is `InvalidInput`. */
function fieldsOf(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new OrganizationError("InvalidInput", "Give the fields as an object.")
  return input as Record<string, unknown>
}

const slugTaken = () => new OrganizationError("SlugTaken", "Another organization has this slug.")

/** Creates an organization with the signed-in user as its owner. */
export async function createOrganization(deps: Deps, request: ModuleRequest, input: CreateOrganizationInput): Promise<OrganizationWithRoles> {
  const actor = await actorOf(request)
  const { allowCreate } = deps.options
  if (!(typeof allowCreate === "function" ? await allowCreate({ id: actor.id, email: actor.email, name: actor.name }) : allowCreate)) {
    throw new OrganizationError("CreateNotAllowed", "You may not create organizations.")
  }
  const fields = fieldsOf(input)
  const name = nameOf(fields.name)
  const logo = fields.logo === undefined ? null : logoOf(fields.logo)
  const metadata = fields.metadata === undefined ? null : metadataOf(fields.metadata)
  const store = storeOf(request)
  const chosen = fields.slug !== undefined
  const base = chosen ? slugOf(fields.slug) : slugFrom(name)
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? base : `${base.slice(0, 40)}-${randomSuffix()}`
    const organization = { id: crypto.randomUUID(), name, slug, logo, metadata, createdAt: new Date() }
    try {
      await store.transaction(async (tx) => {
        await tx.create(organizationModel, organization as StoredRow)
        await tx.create(memberModel, { id: crypto.randomUUID(), organizationId: organization.id, userId: actor.id, roles: ["owner"], createdAt: organization.createdAt })
      })
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error
      // A store without transactions (Redis) may have kept the organization without its owner.
      await store.delete(organizationModel, { id: organization.id })
      if (chosen) throw slugTaken()
      continue
    }
    await report(deps.options, request, { type: "organization.created", organizationId: organization.id, actorId: actor.id })
    return { ...organization, roles: ["owner"] }
  }
  throw slugTaken()
}

function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(3)), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** The signed-in user's organizations, each with their roles in it, oldest membership first. */
export async function listOrganizations(request: ModuleRequest): Promise<OrganizationWithRoles[]> {
  const actor = await actorOf(request)
  return organizationsOf(storeOf(request), actor.id)
}

/** The organizations `userId` belongs to, with their roles there, oldest membership first (at most 500). */
export async function organizationsOf(store: Store, userId: string): Promise<OrganizationWithRoles[]> {
  const memberships = await store.findMany(memberModel, { where: { userId }, orderBy: [{ field: "createdAt" }], limit: 500 })
  const out: OrganizationWithRoles[] = []
  for (const row of memberships) {
    const organization = await store.findOne(organizationModel, { id: String(row.organizationId) })
    if (organization) out.push({ ...organizationFrom(organization), roles: rolesFrom(row.roles) })
  }
  return out
}

/** One organization of the user's, by id or slug; `NotFound` for any other. */
export async function getOrganization(request: ModuleRequest, which: { organizationId?: string; slug?: string }): Promise<OrganizationWithRoles> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = await organizationIdOf(store, fieldsOf(which))
  const { organization, membership } = await asMember(store, actor, id)
  return { ...organization, roles: membership.roles }
}

/** The id `which` names (an id, or a slug looked up); an unknown slug is `NotFound`. */
async function organizationIdOf(store: Store, which: { organizationId?: unknown; slug?: unknown }): Promise<string> {
  if (which.organizationId !== undefined) return idOf(which.organizationId, "organizationId")
  const row = await store.findOne(organizationModel, { slug: slugOf(which.slug) })
  if (!row) throw new OrganizationError("NotFound", "No such organization.")
  return String(row.id)
}

/** Changes an organization's name, slug, logo or metadata (`organization: ["update"]`). */
export async function updateOrganization(deps: Deps, request: ModuleRequest, organizationId: string, input: UpdateOrganizationInput): Promise<OrganizationWithRoles> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { organization, membership } = await withGrant(deps, store, actor, id, { organization: ["update"] })
  const fields = fieldsOf(input)
  const values: Record<string, string | null | Record<string, unknown>> = {}
  if (fields.name !== undefined) values.name = nameOf(fields.name)
  if (fields.slug !== undefined) values.slug = slugOf(fields.slug)
  if (fields.logo !== undefined) values.logo = logoOf(fields.logo)
  if (fields.metadata !== undefined) values.metadata = metadataOf(fields.metadata)
  const changed = Object.keys(values)
  if (changed.length === 0) throw new OrganizationError("InvalidInput", "Nothing to change.")
  if (values.slug !== undefined && values.slug !== organization.slug) {
    const other = await store.findOne(organizationModel, { slug: values.slug as string })
    if (other) throw slugTaken()
  }
  try {
    await store.update(organizationModel, { id }, values as never)
  } catch (error) {
    if (error instanceof StoreConflict) throw slugTaken()
    throw error
  }
  await report(deps.options, request, { type: "organization.updated", organizationId: id, actorId: actor.id, changed })
  return { ...organization, ...(values as Partial<Organization>), roles: membership.roles }
}

/**
 * Deletes an organization, its members and its invitations (`organization: ["delete"]`, an owner
 * by default), only after a recent sign-in (`SignInTooOld`: send the browser to
 * `requireRecentSignIn`'s redirect). Members' sessions lose it as their active organization.
 */
export async function deleteOrganization(deps: Deps, request: ModuleRequest, organizationId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, { organization: ["delete"] })
  if (!(await request.recentSignIn())) throw new OrganizationError("SignInTooOld", "Sign in again to delete the organization.")
  await store.delete(organizationModel, { id })
  await report(deps.options, request, { type: "organization.deleted", organizationId: id, actorId: actor.id })
}

/** The signed-in user leaves an organization; its last owner cannot (`LastOwner`). */
export async function leaveOrganization(deps: Deps, request: ModuleRequest, organizationId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership } = await asMember(store, actor, id)
  await removeMembership(store, membership)
  await report(deps.options, request, { type: "member.left", organizationId: id, actorId: actor.id, memberId: membership.id, userId: actor.id })
}

/**
 * Deletes `membership` as it was read (a changed row is `Conflict`), refusing when it is the last
 * owner's; an owner's leaving takes the owners' rows first (`takeAwayOwner`), so that two owners who
 * leave at once do not both succeed.
 */
export async function removeMembership(store: Store, membership: Membership): Promise<void> {
  await store.transaction(async (tx) => deleteMembership(tx, membership, await takeAwayOwner(tx, membership)))
}

