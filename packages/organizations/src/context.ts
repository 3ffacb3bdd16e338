/**
 * What every action works with, and the checks every action that names an organization makes
 * first: the signed-in user, their membership of that organization (none: `NotFound`, whether the
 * organization exists or not), and what their roles grant. Every id a request names is looked up
 * together with the organization it must belong to, never on its own, so another organization's
 * member or invitation id matches nothing.
 *
 * @module
 */
import type { ModuleRequest, ModuleUsers, Store, StoredRow } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { OrganizationError } from "./errors.js"
import { departureModel, memberModel, organizationModel } from "./models.js"
import type { ResolvedOptions } from "./options.js"
import type { RoleBook } from "./roles.js"
import { rolesIn } from "./stored-roles.js"

/** The module's configuration, as each action gets it. */
export interface Deps {
  options: ResolvedOptions
  book: RoleBook
}

/** The signed-in user as the actions need them. */
export interface Actor {
  id: string
  email: string | null
  emailVerified: boolean
  name: string | null
}

/** A stored organization, as the module answers it. */
export interface Organization {
  id: string
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  createdAt: Date
}

/** A stored membership. */
export interface Membership {
  id: string
  organizationId: string
  userId: string
  roles: string[]
  /** The row's version: a write names it, so that it changes nothing if the row changed since it was read. */
  version: number
  createdAt: Date
}

/** The store, or the error that says the module cannot work (it is off without one, so this is a bug guard). */
export function storeOf(request: Pick<ModuleRequest, "store">): Store {
  if (!request.store) throw new TypeError("organizations: no store (the module is off without one).")
  return request.store
}

/** The adapter's users (an adapter is needed for a store, so this is a bug guard). */
export function usersOf(request: Pick<ModuleRequest, "users">): ModuleUsers {
  if (!request.users) throw new TypeError("organizations: no adapter to read users from.")
  return request.users
}

/** Who a user is, as lists of members show them; all null for a user the adapter no longer has. */
export async function userViewOf(request: Pick<ModuleRequest, "users">, userId: string): Promise<{ name: string | null; email: string | null; image: string | null }> {
  const user = await usersOf(request).get(userId)
  return { name: user?.name ?? null, email: user?.email ?? null, image: user?.image ?? null }
}

/** The signed-in user, or `NotSignedIn`. A user the adapter does not store (a credentials user of a JWT session) cannot be a member. */
export async function actorOf(request: ModuleRequest): Promise<Actor> {
  const user = await request.user()
  if (!user?.id) throw new OrganizationError("NotSignedIn", "Sign in first.")
  const stored = await usersOf(request).get(user.id)
  if (!stored) throw new OrganizationError("NotSignedIn", "Sign in first.")
  return { id: stored.id, email: stored.email ?? null, emailVerified: !!stored.emailVerified, name: stored.name ?? null }
}

export function organizationFrom(row: StoredRow): Organization {
  return {
    id: String(row.id),
    name: String(row.name),
    slug: String(row.slug),
    logo: (row.logo as string | null) ?? null,
    metadata: (row.metadata as Record<string, unknown> | null) ?? null,
    createdAt: row.createdAt as Date,
  }
}

/** A stored roles value as a list of names; anything else (a row written by hand) is no role. */
export function rolesFrom(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((role): role is string => typeof role === "string") : []
}

export function membershipFrom(row: StoredRow): Membership {
  return { id: String(row.id), organizationId: String(row.organizationId), userId: String(row.userId), roles: rolesFrom(row.roles), version: Number(row.version ?? 0), createdAt: row.createdAt as Date }
}

/** `userId`'s membership of `organizationId`, or null. */
export async function membershipOf(store: Store, organizationId: string, userId: string): Promise<Membership | null> {
  const row = await store.findOne(memberModel, { organizationId, userId })
  return row ? membershipFrom(row) : null
}

/** The organization and the actor's membership of it; `NotFound` when they are not a member (or it does not exist). */
export async function asMember(store: Store, actor: Actor, organizationId: string): Promise<{ organization: Organization; membership: Membership }> {
  const membership = await membershipOf(store, organizationId, actor.id)
  const row = membership && (await store.findOne(organizationModel, { id: organizationId }))
  if (!membership || !row) throw new OrganizationError("NotFound", "No such organization.")
  return { organization: organizationFrom(row), membership }
}

/** As {@link asMember}, and `Forbidden` unless the actor's roles grant `wanted`; with the roles that hold there. */
export async function withGrant(deps: Deps, store: Store, actor: Actor, organizationId: string, wanted: Grants<Statements>): Promise<{ organization: Organization; membership: Membership; book: RoleBook }> {
  const found = await asMember(store, actor, organizationId)
  const book = await rolesIn(deps, store, organizationId)
  if (!book.can(found.membership.roles, wanted)) throw new OrganizationError("Forbidden", "Your roles in this organization do not allow this.")
  return { ...found, book }
}

/** The owners of `organizationId`. */
async function ownersOf(store: Store, organizationId: string): Promise<Membership[]> {
  const members = await store.findMany(memberModel, { where: { organizationId } })
  return members.map(membershipFrom).filter((member) => member.roles.includes("owner"))
}

export const changedMeanwhile = () => new OrganizationError("Conflict", "The member changed meanwhile: read it again and try again.")

export const lastOwner = () => new OrganizationError("LastOwner", "An organization keeps at least one owner: make someone else an owner first.")

/**
 * Before `member`'s row is written in transaction `tx` so that it is no longer an owner (demoted,
 * removed, leaving): `LastOwner` when it is the only one, else the version its row has now.
 *
 * Every owner's row is taken first, by writing its version over the one read, in id order. A
 * concurrent change that takes an owner away too then waits for this one (a row lock), finds the
 * versions moved and stops (`Conflict`): without it, two owners demoted or leaving at once each saw
 * the other still an owner (READ COMMITTED, or a store without isolation) and the organization was
 * left with none. The same order for every taker, so that two queue rather than deadlock.
 */
export async function takeAwayOwner(tx: Store, member: Membership): Promise<number> {
  if (!member.roles.includes("owner")) return member.version
  const owners = (await ownersOf(tx, member.organizationId)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  if (owners.length <= 1) throw lastOwner()
  for (const owner of owners) {
    if ((await tx.update(memberModel, { id: owner.id, organizationId: owner.organizationId, version: owner.version }, { version: owner.version + 1 })) !== 1) throw changedMeanwhile()
  }
  const taken = owners.find((owner) => owner.id === member.id)
  // Not among them: it stopped being an owner meanwhile, so its version moved (`Conflict` at the write).
  return taken ? taken.version + 1 : member.version
}

/**
 * Deletes `member`'s row as it was read (`version`), in transaction `tx`, and notes the departure,
 * so that a verified domain's auto-join does not bring them back. `Conflict` when the row changed.
 * Returns the instant the departure is noted at: what names this departure later (a provisioning
 * that reactivates takes away only the note its own deactivation made).
 */
export async function deleteMembership(tx: Store, member: Membership, version: number): Promise<Date> {
  if ((await tx.delete(memberModel, { id: member.id, organizationId: member.organizationId, version })) !== 1) throw changedMeanwhile()
  const key = { organizationId: member.organizationId, userId: member.userId }
  const at = new Date()
  await tx.delete(departureModel, key)
  await tx.create(departureModel, { ...key, at })
  return at
}
