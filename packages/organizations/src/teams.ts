/**
 * Teams inside an organization: named groups of its members, each team member with team roles
 * (`lead`, `member`). Any member of the organization lists its teams and their members. Managing
 * teams (create, rename, delete, and any team's membership) needs the organization grant
 * `member: ["update"]` (admins and owners); a team's lead manages that team's membership only.
 *
 * Only members of the same organization join its teams: every id a request names is looked up
 * together with the organization it must belong to, so another organization's team or member id
 * matches nothing (`NotFound`). A member who leaves the organization leaves its teams (the team
 * membership refers to the organization membership, and goes with it).
 *
 * @module
 */
import { StoreConflict, op, type ModelDeclaration, type ModuleRequest, type ModuleRoute, type Store, type StoredRow } from "@sesame/core"
import { actorOf, asMember, rolesFrom, storeOf, userViewOf, withGrant, type Actor, type Deps, type Membership } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf, nameOf, roleNamesOf } from "./input.js"
import { memberModel } from "./models.js"
import { field, route } from "./route.js"
import { rolesIn } from "./stored-roles.js"

export const teamModel = {
  name: "organizationTeam",
  table: "sesame_organization_teams",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" } },
    name: { type: "string" },
    createdAt: { type: "date" },
  },
  indexes: [{ fields: ["organizationId", "name"], unique: true }],
} as const satisfies ModelDeclaration

export const teamMemberModel = {
  name: "organizationTeamMember",
  table: "sesame_organization_team_members",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    teamId: { type: "string", references: { model: "organizationTeam" } },
    /** The team's organization, so that every lookup is scoped to it. */
    organizationId: { type: "string", index: true },
    /** The organization membership: a member who leaves the organization leaves its teams. */
    memberId: { type: "string", references: { model: "organizationMember" }, index: true },
    userId: { type: "string" },
    /** Team role names, a JSON array. */
    roles: { type: "json" },
    createdAt: { type: "date" },
  },
  indexes: [{ fields: ["teamId", "memberId"], unique: true }],
} as const satisfies ModelDeclaration

export const teamModels = [teamModel, teamMemberModel] as const

/** The team roles: a `lead` manages the team's membership; a `member` is in it. */
export const teamRoles = ["lead", "member"] as const

export type TeamRole = (typeof teamRoles)[number]

/** The changes to teams the module reports to `onChange`. */
export type TeamEvent = { organizationId: string; actorId: string } & (
  | { type: "team.created" | "team.deleted"; teamId: string; name: string }
  | { type: "team.renamed"; teamId: string; name: string; previous: string }
  | { type: "team.member-added"; teamId: string; memberId: string; userId: string; roles: string[] }
  | { type: "team.member-roles-changed"; teamId: string; memberId: string; userId: string; roles: string[]; previous: string[] }
  | { type: "team.member-removed"; teamId: string; memberId: string; userId: string }
)

/** A team as the module answers it. */
export interface TeamInfo {
  id: string
  organizationId: string
  name: string
  createdAt: Date
}

/** A team of the signed-in user's, with their team roles in it. */
export interface MyTeamInfo extends TeamInfo {
  roles: string[]
}

/** A member of a team as lists show them; `memberId` is their organization membership. */
export interface TeamMemberInfo {
  id: string
  teamId: string
  memberId: string
  userId: string
  roles: string[]
  createdAt: Date
  user: { name: string | null; email: string | null; image: string | null }
}

/** What managing teams needs of the actor's organization roles. */
const manageGrant = { member: ["update"] }

const teamNameTaken = () => new OrganizationError("InvalidInput", "A team of this name exists in the organization.")

function teamFrom(row: StoredRow): TeamInfo {
  return { id: String(row.id), organizationId: String(row.organizationId), name: String(row.name), createdAt: row.createdAt as Date }
}

/** Team role names as given: a list of known team roles, else `InvalidInput`. */
function teamRolesOf(value: unknown): string[] {
  const given = roleNamesOf(value)
  const unknown = given.filter((role) => !(teamRoles as readonly string[]).includes(role))
  if (unknown.length > 0) throw new OrganizationError("InvalidInput", `No such team role: ${unknown.join(", ")}.`)
  return given
}

/** Team `teamId` of `organizationId` (a team of another organization is `NotFound`). */
async function teamIn(store: Store, organizationId: string, teamId: unknown): Promise<TeamInfo> {
  const row = await store.findOne(teamModel, { id: idOf(teamId, "teamId"), organizationId })
  if (!row) throw new OrganizationError("NotFound", "No such team.")
  return teamFrom(row)
}

/** The team membership of organization member `memberId` in `team`, or null. */
async function teamMemberRow(store: Store, team: TeamInfo, memberId: string): Promise<StoredRow | null> {
  return store.findOne(teamMemberModel, { teamId: team.id, organizationId: team.organizationId, memberId })
}

/**
 * The team, once the actor may manage its membership: their organization roles grant
 * `member: ["update"]`, or they lead this team. Not a member of the organization: `NotFound`.
 */
async function asTeamManager(deps: Deps, store: Store, actor: Actor, organizationId: string, teamId: unknown): Promise<{ team: TeamInfo; membership: Membership }> {
  const { membership } = await asMember(store, actor, organizationId)
  const team = await teamIn(store, organizationId, teamId)
  if ((await rolesIn(deps, store, organizationId)).can(membership.roles, manageGrant)) return { team, membership }
  const mine = await teamMemberRow(store, team, membership.id)
  if (!mine || !rolesFrom(mine.roles).includes("lead")) throw new OrganizationError("Forbidden", "Only the team's leads and the organization's admins manage this team.")
  return { team, membership }
}

async function teamMemberInfo(request: ModuleRequest, row: StoredRow): Promise<TeamMemberInfo> {
  const userId = String(row.userId)
  return { id: String(row.id), teamId: String(row.teamId), memberId: String(row.memberId), userId, roles: rolesFrom(row.roles), createdAt: row.createdAt as Date, user: await userViewOf(request, userId) }
}

function emit(deps: Deps, request: ModuleRequest, event: TeamEvent): Promise<void> {
  return report(deps.options, request, event)
}

/** Creates a team (`member: ["update"]`); its name is unique in the organization. */
export async function createTeam(deps: Deps, request: ModuleRequest, organizationId: string, name: string): Promise<TeamInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, manageGrant)
  const teamName = nameOf(name)
  if (await store.findOne(teamModel, { organizationId: id, name: teamName })) throw teamNameTaken()
  const team: TeamInfo = { id: crypto.randomUUID(), organizationId: id, name: teamName, createdAt: new Date() }
  try {
    await store.create(teamModel, team as unknown as StoredRow)
  } catch (error) {
    if (error instanceof StoreConflict) throw teamNameTaken()
    throw error
  }
  await emit(deps, request, { type: "team.created", organizationId: id, actorId: actor.id, teamId: team.id, name: teamName })
  return team
}

/** Renames a team (`member: ["update"]`). */
export async function renameTeam(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string, name: string): Promise<TeamInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, manageGrant)
  const team = await teamIn(store, id, teamId)
  const teamName = nameOf(name)
  if (teamName === team.name) return team
  const other = await store.findOne(teamModel, { organizationId: id, name: teamName })
  if (other && String(other.id) !== team.id) throw teamNameTaken()
  try {
    await store.update(teamModel, { id: team.id, organizationId: id }, { name: teamName })
  } catch (error) {
    if (error instanceof StoreConflict) throw teamNameTaken()
    throw error
  }
  await emit(deps, request, { type: "team.renamed", organizationId: id, actorId: actor.id, teamId: team.id, name: teamName, previous: team.name })
  return { ...team, name: teamName }
}

/** Deletes a team and its memberships (`member: ["update"]`); its members stay in the organization. */
export async function deleteTeam(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, manageGrant)
  const team = await teamIn(store, id, teamId)
  await store.transaction(async (tx) => {
    // The reference cascades too; deleted here as well so that no store keeps them.
    await tx.delete(teamMemberModel, { teamId: team.id, organizationId: id })
    await tx.delete(teamModel, { id: team.id, organizationId: id })
  })
  await emit(deps, request, { type: "team.deleted", organizationId: id, actorId: actor.id, teamId: team.id, name: team.name })
}

/** The teams of an organization the signed-in user belongs to, oldest first. */
export async function listTeams(deps: Deps, request: ModuleRequest, organizationId: string): Promise<TeamInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await asMember(store, actor, id)
  const rows = await store.findMany(teamModel, { where: { organizationId: id }, orderBy: [{ field: "createdAt" }], limit: 1000 })
  return rows.map(teamFrom)
}

/** Team rows whose organization membership still exists (a store that missed a cascade keeps none). */
async function current(store: Store, organizationId: string, rows: StoredRow[]): Promise<StoredRow[]> {
  if (rows.length === 0) return rows
  const members = await store.findMany(memberModel, { where: { organizationId, id: op.in(rows.map((row) => String(row.memberId))) } })
  const ids = new Set(members.map((row) => String(row.id)))
  return rows.filter((row) => ids.has(String(row.memberId)))
}

/** The members of a team, for any member of its organization, oldest first. */
export async function listTeamMembers(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string): Promise<TeamMemberInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await asMember(store, actor, id)
  const team = await teamIn(store, id, teamId)
  const rows = await store.findMany(teamMemberModel, { where: { teamId: team.id, organizationId: id }, orderBy: [{ field: "createdAt" }], limit: 1000 })
  return Promise.all((await current(store, id, rows)).map((row) => teamMemberInfo(request, row)))
}

/**
 * Adds member `memberId` (an organization membership id of the same organization) to a team, with
 * team `roles` (default `member`): the organization's admins, or the team's leads.
 */
export async function addTeamMember(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string, memberId: string, roles: string[] = ["member"]): Promise<TeamMemberInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { team } = await asTeamManager(deps, store, actor, id, teamId)
  const given = teamRolesOf(roles)
  const member = await store.findOne(memberModel, { id: idOf(memberId, "memberId"), organizationId: id })
  if (!member) throw new OrganizationError("NotFound", "No such member.")
  if (await teamMemberRow(store, team, String(member.id))) throw new OrganizationError("AlreadyMember", "The member is in this team already.")
  const row = { id: crypto.randomUUID(), teamId: team.id, organizationId: id, memberId: String(member.id), userId: String(member.userId), roles: given, createdAt: new Date() }
  try {
    await store.create(teamMemberModel, row)
  } catch (error) {
    if (error instanceof StoreConflict) throw new OrganizationError("AlreadyMember", "The member is in this team already.")
    throw error
  }
  await emit(deps, request, { type: "team.member-added", organizationId: id, actorId: actor.id, teamId: team.id, memberId: row.memberId, userId: row.userId, roles: given })
  return { ...row, user: await userViewOf(request, row.userId) }
}

/** Sets a team member's team roles: the organization's admins, or the team's leads. */
export async function setTeamMemberRoles(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string, memberId: string, roles: string[]): Promise<TeamMemberInfo> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { team } = await asTeamManager(deps, store, actor, id, teamId)
  const given = teamRolesOf(roles)
  const row = await teamMemberRow(store, team, idOf(memberId, "memberId"))
  if (!row) throw new OrganizationError("NotFound", "No such team member.")
  const previous = rolesFrom(row.roles)
  await store.update(teamMemberModel, { id: String(row.id), teamId: team.id, organizationId: id }, { roles: given })
  await emit(deps, request, { type: "team.member-roles-changed", organizationId: id, actorId: actor.id, teamId: team.id, memberId: String(row.memberId), userId: String(row.userId), roles: given, previous })
  return teamMemberInfo(request, { ...row, roles: given })
}

/** Removes a member from a team (they stay in the organization): the organization's admins, or the team's leads. */
export async function removeTeamMember(deps: Deps, request: ModuleRequest, organizationId: string, teamId: string, memberId: string): Promise<void> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { team } = await asTeamManager(deps, store, actor, id, teamId)
  const row = await teamMemberRow(store, team, idOf(memberId, "memberId"))
  if (!row) throw new OrganizationError("NotFound", "No such team member.")
  await store.delete(teamMemberModel, { id: String(row.id), teamId: team.id, organizationId: id })
  await emit(deps, request, { type: "team.member-removed", organizationId: id, actorId: actor.id, teamId: team.id, memberId: String(row.memberId), userId: String(row.userId) })
}

/** The signed-in user's teams in an organization, each with their team roles, oldest first. */
export async function listMyTeams(deps: Deps, request: ModuleRequest, organizationId: string): Promise<MyTeamInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership } = await asMember(store, actor, id)
  const mine = await store.findMany(teamMemberModel, { where: { organizationId: id, memberId: membership.id }, limit: 1000 })
  if (mine.length === 0) return []
  const roles = new Map(mine.map((row) => [String(row.teamId), rolesFrom(row.roles)]))
  const teams = await store.findMany(teamModel, { where: { organizationId: id, id: op.in([...roles.keys()]) }, orderBy: [{ field: "createdAt" }] })
  return teams.map((row) => ({ ...teamFrom(row), roles: roles.get(String(row.id)) ?? [] }))
}

/** The teams' endpoints, at `<basePath>/organization/teams…`. */
export function teamRoutes(deps: Deps): Record<string, ModuleRoute> {
  const org = (r: ModuleRequest) => field(r, "organizationId") as string
  const team = (r: ModuleRequest) => field(r, "teamId") as string
  const member = (r: ModuleRequest) => field(r, "memberId") as string
  return {
    "GET organization/teams": route((r) => listTeams(deps, r, org(r))),
    "GET organization/teams/mine": route((r) => listMyTeams(deps, r, org(r))),
    "POST organization/teams/create": route((r) => createTeam(deps, r, org(r), field(r, "name") as string)),
    "POST organization/teams/rename": route((r) => renameTeam(deps, r, org(r), team(r), field(r, "name") as string)),
    "POST organization/teams/delete": route((r) => deleteTeam(deps, r, org(r), team(r))),
    "GET organization/teams/members": route((r) => listTeamMembers(deps, r, org(r), team(r))),
    "POST organization/teams/members/add": route((r) => addTeamMember(deps, r, org(r), team(r), member(r), (field(r, "roles") ?? ["member"]) as string[])),
    "POST organization/teams/members/roles": route((r) => setTeamMemberRoles(deps, r, org(r), team(r), member(r), field(r, "roles") as string[])),
    "POST organization/teams/members/remove": route((r) => removeTeamMember(deps, r, org(r), team(r), member(r))),
  }
}

/** The teams' server functions, named as the functions. */
export function teamApi(deps: Deps) {
  return {
    createTeam: (request: ModuleRequest, organizationId: string, name: string) => createTeam(deps, request, organizationId, name),
    renameTeam: (request: ModuleRequest, organizationId: string, teamId: string, name: string) => renameTeam(deps, request, organizationId, teamId, name),
    deleteTeam: (request: ModuleRequest, organizationId: string, teamId: string) => deleteTeam(deps, request, organizationId, teamId),
    listTeams: (request: ModuleRequest, organizationId: string) => listTeams(deps, request, organizationId),
    listTeamMembers: (request: ModuleRequest, organizationId: string, teamId: string) => listTeamMembers(deps, request, organizationId, teamId),
    addTeamMember: (request: ModuleRequest, organizationId: string, teamId: string, memberId: string, roles?: string[]) => addTeamMember(deps, request, organizationId, teamId, memberId, roles),
    setTeamMemberRoles: (request: ModuleRequest, organizationId: string, teamId: string, memberId: string, roles: string[]) => setTeamMemberRoles(deps, request, organizationId, teamId, memberId, roles),
    removeTeamMember: (request: ModuleRequest, organizationId: string, teamId: string, memberId: string) => removeTeamMember(deps, request, organizationId, teamId, memberId),
    listMyTeams: (request: ModuleRequest, organizationId: string) => listMyTeams(deps, request, organizationId),
  }
}
