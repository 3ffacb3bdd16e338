/**
 * `/Groups`, kept small: a group of the connection's identity provider is a name, an `externalId`
 * and a list of members (users this connection provisioned). Its one effect: when its
 * `displayName` names a role of the organization, its members hold that role (`membership.ts`).
 * No nested groups, no group of another connection's users.
 *
 * `PATCH` takes what Okta and Entra ID send: `add`/`remove` of `members` (a list of `{ value }`),
 * `remove` of `members[value eq "<id>"]`, `replace` of `members`, `displayName` or `externalId`,
 * with a path or as an object without one.
 *
 * @module
 */
import { op, StoreConflict, type StoredRow } from "@sesame/core"
import { isObject, patchOperations, textOf } from "./attributes.js"
import type { Scope } from "./auth.js"
import { invalidValue, notFound, ScimError } from "./errors.js"
import { groupSelection } from "./filter.js"
import { queryParam, readJson, requireSchema, schemas, scimResponse } from "./http.js"
import { listResponse } from "./list.js"
import { groupChanged, membersOf } from "./membership.js"
import { scimGroupModel, scimUserModel } from "./models.js"
import { isId } from "../stored.js"

/** The most members a group holds here. */
const maxMembers = 1000

const groupUrn = `${schemas.group.toLowerCase()}:`

const taken = () => new ScimError(409, "uniqueness", "This connection already has a group of this name.")

export function groupResource(scope: Scope, row: StoredRow, withMembers = true): Record<string, unknown> {
  return {
    schemas: [schemas.group],
    id: row.id,
    externalId: typeof row.externalId === "string" ? row.externalId : undefined,
    displayName: row.displayName,
    members: withMembers ? membersOf(row).map((value) => ({ value, $ref: `${scope.base}/Users/${value}` })) : undefined,
    meta: { resourceType: "Group", created: (row.createdAt as Date).toISOString(), lastModified: (row.updatedAt as Date).toISOString(), location: `${scope.base}/Groups/${String(row.id)}` },
  }
}

const scoped = (scope: Scope, id: unknown) => ({ id: String(id), connectionId: scope.connectionId, organizationId: scope.organizationId })

async function groupOf(scope: Scope, id: string): Promise<StoredRow> {
  const row = isId(id) ? await scope.store.findOne(scimGroupModel, scoped(scope, id)) : null
  if (!row) throw notFound("group")
  return row
}

/** The SCIM ids of `value` (`[{ value }]`). */
function idsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value]
  const ids = list.map((member) => (isObject(member) && typeof member.value === "string" ? member.value : null))
  if (ids.some((id) => id === null)) throw invalidValue("`members` must list objects with a `value`.")
  return [...new Set(ids as string[])]
}

/** Refuses ids that are not users this connection provisioned. */
async function checkUsers(scope: Scope, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  const valid = ids.filter(isId)
  const found = valid.length === 0 ? 0 : await scope.store.count(scimUserModel, { connectionId: scope.connectionId, organizationId: scope.organizationId, id: op.in(valid) })
  if (found !== ids.length) throw invalidValue("A member is not a user this connection provisioned.")
}

/** The group's state as a request leaves it. */
interface GroupState {
  displayName: string
  externalId: string | null
  members: Set<string>
}

/** Writes `next` over `before`, and gives or takes the roles it maps to. */
async function save(scope: Scope, before: StoredRow, next: GroupState): Promise<Response> {
  const members = [...next.members]
  if (members.length > maxMembers) throw new ScimError(400, "tooMany", `A group holds at most ${maxMembers} members here.`)
  await checkUsers(scope, members.filter((id) => !membersOf(before).includes(id)))
  const values = { displayName: next.displayName, displayNameKey: next.displayName.toLowerCase(), externalId: next.externalId, members, updatedAt: new Date() }
  try {
    await scope.store.update(scimGroupModel, scoped(scope, before.id), values)
  } catch (error) {
    if (error instanceof StoreConflict) throw taken()
    throw error
  }
  const after = { ...before, ...values }
  await groupChanged(scope, before, after)
  return scimResponse(200, groupResource(scope, after))
}

export async function listGroups(scope: Scope, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const filter = queryParam(url, "filter")
  // Entra ID asks without members when it only looks a group up.
  const withMembers = !/(^|,)\s*members\s*(,|$)/i.test(queryParam(url, "excludedAttributes") ?? "")
  return listResponse(scope, url, scimGroupModel, filter === undefined ? { where: {} } : groupSelection(filter), (row) => groupResource(scope, row, withMembers))
}

export async function getGroup(scope: Scope, _request: Request, id: string): Promise<Response> {
  return scimResponse(200, groupResource(scope, await groupOf(scope, id)))
}

export async function createGroup(scope: Scope, request: Request): Promise<Response> {
  const body = await readJson(request)
  requireSchema(body, schemas.group)
  const displayName = textOf(body.displayName, "displayName")
  const members = body.members === undefined || body.members === null ? [] : idsOf(body.members)
  if (members.length > maxMembers) throw new ScimError(400, "tooMany", `A group holds at most ${maxMembers} members here.`)
  await checkUsers(scope, members)
  const now = new Date()
  const row: StoredRow = {
    id: crypto.randomUUID(),
    connectionId: scope.connectionId,
    organizationId: scope.organizationId,
    displayName,
    displayNameKey: displayName.toLowerCase(),
    externalId: body.externalId === undefined || body.externalId === null ? null : textOf(body.externalId, "externalId"),
    members,
    createdAt: now,
    updatedAt: now,
  }
  try {
    await scope.store.create(scimGroupModel, row)
  } catch (error) {
    if (error instanceof StoreConflict) throw taken()
    throw error
  }
  await groupChanged(scope, null, row)
  const resource = groupResource(scope, row)
  return scimResponse(201, resource, { location: (resource.meta as { location: string }).location })
}

export async function replaceGroup(scope: Scope, request: Request, id: string): Promise<Response> {
  const before = await groupOf(scope, id)
  const body = await readJson(request)
  requireSchema(body, schemas.group)
  return save(scope, before, {
    displayName: textOf(body.displayName, "displayName"),
    externalId: body.externalId === undefined || body.externalId === null ? null : textOf(body.externalId, "externalId"),
    members: new Set(body.members === undefined ? membersOf(before) : body.members === null ? [] : idsOf(body.members)),
  })
}

/** The id a `members[value eq "<id>"]` path names. */
function memberPathId(literal: string): string {
  try {
    const id: unknown = JSON.parse(literal)
    if (typeof id === "string") return id
  } catch {
    // Not a JSON string: refused below.
  }
  throw new ScimError(400, "invalidPath", 'A member path must be `members[value eq "<id>"]`.')
}

/** Applies one operation on attribute `path` (as sent, without the URN) to `state`. */
function applyToGroup(state: GroupState, opName: "add" | "replace" | "remove", path: string, value: unknown): void {
  const one = /^members\[\s*value\s+eq\s+("(?:[^"\\]|\\.)*")\s*\]$/i.exec(path)
  if (one) {
    if (opName !== "remove") throw new ScimError(400, "invalidPath", 'Only `remove` takes `members[value eq "…"]`.')
    state.members.delete(memberPathId(one[1]!))
    return
  }
  switch (path.toLowerCase()) {
    case "members":
      if (opName === "replace") state.members = new Set(idsOf(value))
      else if (opName === "add") for (const id of idsOf(value)) state.members.add(id)
      else if (value === undefined) state.members.clear()
      else for (const id of idsOf(value)) state.members.delete(id)
      return
    case "displayname":
      if (opName === "remove") throw new ScimError(400, "mutability", "`displayName` cannot be removed.")
      state.displayName = textOf(value, "displayName")
      return
    case "externalid":
      state.externalId = opName === "remove" || value === null ? null : textOf(value, "externalId")
      return
    case "id":
    case "schemas":
    case "meta":
      return
    default:
      throw new ScimError(400, "invalidPath", "A group's `members`, `displayName` and `externalId` can be changed.")
  }
}

export async function patchGroup(scope: Scope, request: Request, id: string): Promise<Response> {
  const before = await groupOf(scope, id)
  const state: GroupState = { displayName: String(before.displayName), externalId: typeof before.externalId === "string" ? before.externalId : null, members: new Set(membersOf(before)) }
  for (const { op: opName, path, value } of patchOperations(await readJson(request))) {
    if (path !== undefined) {
      const trimmed = path.trim()
      applyToGroup(state, opName, trimmed.toLowerCase().startsWith(groupUrn) ? trimmed.slice(groupUrn.length) : trimmed, value)
    } else if (opName !== "remove" && isObject(value)) {
      for (const [key, inner] of Object.entries(value)) applyToGroup(state, opName, key, inner)
    } else {
      throw new ScimError(400, "noTarget", "An operation without `path` needs an object as its `value`, and `remove` a `path`.")
    }
  }
  return save(scope, before, state)
}

export async function deleteGroup(scope: Scope, _request: Request, id: string): Promise<Response> {
  const before = await groupOf(scope, id)
  await scope.store.delete(scimGroupModel, scoped(scope, before.id))
  await groupChanged(scope, before, null)
  return scimResponse(204)
}
