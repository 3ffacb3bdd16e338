/**
 * Writing an organization's own roles (`dynamicRoles: true`). An admin (`organization: ["update"]`)
 * creates, changes and deletes them, and only within what they hold themselves: a role granting an
 * action its author does not hold is refused, and so is changing or deleting a role that grants
 * more than its editor holds. A member who holds a deleted role keeps the name, which grants nothing.
 *
 * @module
 */
import { StoreConflict, type ModuleRequest, type ModuleRoute, type StoredRow } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { actorOf, asMember, storeOf, withGrant, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf } from "./input.js"
import { field, route } from "./route.js"
import { maxStoredRoles, roleModel } from "./stored-roles.js"

/** A role as lists show it. */
export interface RoleInfo {
  name: string
  /** Whether the configuration defines it (it cannot be changed here), or the organization. */
  configured: boolean
  /** An organization's own role: its id and grants. */
  id?: string
  grants?: Grants<Statements>
}

/** The changes to an organization's own roles `onChange` hears. */
export type RoleEvent = { organizationId: string; actorId: string } & { type: "role.created" | "role.updated" | "role.deleted"; roleId: string; name: string }

const invalid = (message: string) => new OrganizationError("InvalidInput", message)

function on(deps: Deps): void {
  if (!deps.options.dynamicRoles) throw invalid("Organizations' own roles are off: the app's configuration sets `dynamicRoles: true` to turn them on.")
}

/** `grants` read against the statements, or `InvalidInput` naming what is wrong. */
function grantsOf(deps: Deps, grants: unknown): Grants<Statements> {
  try {
    return deps.book.parse(grants)
  } catch (error) {
    throw invalid(`\`grants\`: ${(error as Error).message}`)
  }
}

/** A role name: the rules of `@sesame/core/access`, and not one of the configuration's. */
function nameOf(deps: Deps, name: unknown): string {
  if (typeof name !== "string" || !/^[a-z][a-zA-Z0-9_-]{0,63}$/.test(name) || name in Object.prototype) throw invalid("`name` must be a lowercase letter then letters, digits, _ or -, at most 64 characters.")
  if (deps.book.configured(name)) throw invalid(`"${name}" is one of the configuration's roles.`)
  return name
}

function infoFrom(row: StoredRow): RoleInfo {
  return { name: String(row.name), configured: false, id: String(row.id), grants: row.grants as Grants<Statements> }
}

/** The roles that hold in an organization, for any member: the configuration's, then its own. */
export async function listRoles(deps: Deps, request: ModuleRequest, organizationId: string): Promise<RoleInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await asMember(store, actor, id)
  const own = deps.options.dynamicRoles ? await store.findMany(roleModel, { where: { organizationId: id }, orderBy: [{ field: "createdAt" }], limit: maxStoredRoles }) : []
  return [...deps.book.names.map((name) => ({ name, configured: true })), ...own.map(infoFrom)]
}

/** Creates a role of the organization's own, granting `grants` (all held by its author). */
export async function createRole(deps: Deps, request: ModuleRequest, organizationId: string, name: string, grants: Grants<Statements>): Promise<RoleInfo> {
  on(deps)
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership, book } = await withGrant(deps, store, actor, id, { organization: ["update"] })
  const role = nameOf(deps, name)
  const parsed = grantsOf(deps, grants)
  if (!book.covers(membership.roles, parsed)) throw new OrganizationError("Forbidden", "A role may grant only what you hold yourself.")
  if ((await store.count(roleModel, { organizationId: id })) >= maxStoredRoles) throw invalid(`An organization may have at most ${maxStoredRoles} roles of its own.`)
  const row = { id: crypto.randomUUID(), organizationId: id, name: role, grants: parsed as StoredRow[string], createdAt: new Date() }
  try {
    await store.create(roleModel, row)
  } catch (error) {
    if (error instanceof StoreConflict) throw invalid(`The organization has a role "${role}" already.`)
    throw error
  }
  await report(deps.options, request, { type: "role.created", organizationId: id, actorId: actor.id, roleId: row.id, name: role })
  return infoFrom(row)
}

/** The organization's own role `roleId`, for an actor who may write roles and holds all it grants. */
async function editable(deps: Deps, request: ModuleRequest, organizationId: string, roleId: string) {
  on(deps)
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership, book } = await withGrant(deps, store, actor, id, { organization: ["update"] })
  const row = await store.findOne(roleModel, { id: idOf(roleId, "roleId"), organizationId: id })
  if (!row) throw new OrganizationError("NotFound", "No such role.")
  // A role that grants what the editor does not hold is beyond them, whatever it becomes.
  let held: Grants<Statements> | undefined
  try {
    held = deps.book.parse(row.grants)
  } catch {
    held = undefined
  }
  if (held && !book.covers(membership.roles, held)) throw new OrganizationError("Forbidden", "This role grants more than you hold.")
  return { actor, store, id, row, membership, book }
}

/** Changes what a role of the organization's own grants. */
export async function updateRole(deps: Deps, request: ModuleRequest, organizationId: string, roleId: string, grants: Grants<Statements>): Promise<RoleInfo> {
  const { actor, store, id, row, membership, book } = await editable(deps, request, organizationId, roleId)
  const parsed = grantsOf(deps, grants)
  if (!book.covers(membership.roles, parsed)) throw new OrganizationError("Forbidden", "A role may grant only what you hold yourself.")
  await store.update(roleModel, { id: String(row.id), organizationId: id }, { grants: parsed as StoredRow[string] })
  await report(deps.options, request, { type: "role.updated", organizationId: id, actorId: actor.id, roleId: String(row.id), name: String(row.name) })
  return { ...infoFrom(row), grants: parsed }
}

/** Deletes a role of the organization's own; members who hold it keep the name, which grants nothing. */
export async function deleteRole(deps: Deps, request: ModuleRequest, organizationId: string, roleId: string): Promise<void> {
  const { actor, store, id, row } = await editable(deps, request, organizationId, roleId)
  if ((await store.delete(roleModel, { id: String(row.id), organizationId: id })) !== 1) throw new OrganizationError("NotFound", "No such role.")
  await report(deps.options, request, { type: "role.deleted", organizationId: id, actorId: actor.id, roleId: String(row.id), name: String(row.name) })
}

/** The roles' endpoints, at `<basePath>/organization/roles…`. */
export function roleRoutes(deps: Deps): Record<string, ModuleRoute> {
  const org = (r: ModuleRequest) => field(r, "organizationId") as string
  return {
    "GET organization/roles": route((r) => listRoles(deps, r, org(r))),
    "POST organization/roles/create": route((r) => createRole(deps, r, org(r), field(r, "name") as string, field(r, "grants") as Grants<Statements>)),
    "POST organization/roles/update": route((r) => updateRole(deps, r, org(r), field(r, "roleId") as string, field(r, "grants") as Grants<Statements>)),
    "POST organization/roles/delete": route((r) => deleteRole(deps, r, org(r), field(r, "roleId") as string)),
  }
}

/** The roles' server functions. */
export function roleApi(deps: Deps) {
  return {
    listRoles: (request: ModuleRequest, organizationId: string) => listRoles(deps, request, organizationId),
    createRole: (request: ModuleRequest, organizationId: string, name: string, grants: Grants<Statements>) => createRole(deps, request, organizationId, name, grants),
    updateRole: (request: ModuleRequest, organizationId: string, roleId: string, grants: Grants<Statements>) => updateRole(deps, request, organizationId, roleId, grants),
    deleteRole: (request: ModuleRequest, organizationId: string, roleId: string) => deleteRole(deps, request, organizationId, roleId),
  }
}

