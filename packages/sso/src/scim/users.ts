/**
 * `/Users` (RFC 7644 §3.3–3.6): the people a connection's identity provider provisioned into its
 * organization, and only those: every lookup names the scope's connection and organization, so
 * another organization's SCIM id is `404`, as one that does not exist.
 *
 * - `POST` creates or links the user of the body's address (at a domain the organization proved,
 *   else `400`; see `accounts.ts`), and makes them a member with the connection's roles;
 *   `409 uniqueness` when this connection already provisioned that `userName` or that user.
 * - `PUT` and `PATCH` change `userName`, the name, `displayName`, `externalId` and `active`.
 * - `active: false` removes the membership and ends the user's sessions; `true` again restores it
 *   (`membership.ts`). `DELETE` deactivates, then forgets the resource.
 *
 * @module
 */
import { StoreConflict, type StoredRow } from "@sesame/core"
import { emailDomain, organizationOfDomain } from "../domains.js"
import { accountFor } from "./accounts.js"
import { emailOf, userAttributes, userPatch, type UserChanges } from "./attributes.js"
import type { Scope } from "./auth.js"
import { invalidValue, notFound, ScimError } from "./errors.js"
import { userSelection } from "./filter.js"
import { queryParam, readJson, schemas, scimResponse } from "./http.js"
import { listResponse } from "./list.js"
import { activate, deactivate, membersOf } from "./membership.js"
import { scimGroupModel, scimUserModel } from "./models.js"
import { isId } from "../stored.js"

const taken = () => new ScimError(409, "uniqueness", "This connection already provisioned this user.")

const optional = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined)

/** A stored resource as SCIM shows it. */
export function userResource(scope: Scope, row: StoredRow): Record<string, unknown> {
  const name = { givenName: optional(row.givenName), familyName: optional(row.familyName) }
  const formatted = [name.givenName, name.familyName].filter(Boolean).join(" ")
  return {
    schemas: [schemas.user],
    id: row.id,
    externalId: optional(row.externalId),
    userName: row.userName,
    name: formatted ? { ...name, formatted } : undefined,
    displayName: optional(row.displayName),
    emails: [{ value: row.email, type: "work", primary: true }],
    active: row.active === true,
    meta: { resourceType: "User", created: (row.createdAt as Date).toISOString(), lastModified: (row.updatedAt as Date).toISOString(), location: `${scope.base}/Users/${String(row.id)}` },
  }
}

/** The scope's resource `id`; `404` for any other (another connection's, another organization's). */
async function resourceOf(scope: Scope, id: string): Promise<StoredRow> {
  const row = isId(id) ? await scope.store.findOne(scimUserModel, { id, connectionId: scope.connectionId, organizationId: scope.organizationId }) : null
  if (!row) throw notFound("user")
  return row
}

const scoped = (scope: Scope, id: unknown) => ({ id: String(id), connectionId: scope.connectionId, organizationId: scope.organizationId })

/** Applies `changes` to resource `row` (activation first, so that a refused deactivation changes nothing), and answers it. */
async function change(scope: Scope, row: StoredRow, changes: UserChanges): Promise<Response> {
  const { store } = scope
  const values: StoredRow = {}
  if (changes.userName !== undefined && changes.userName !== row.userName) {
    const userNameKey = changes.userName.toLowerCase()
    const other = await store.findOne(scimUserModel, { connectionId: scope.connectionId, organizationId: scope.organizationId, userNameKey })
    if (other && other.id !== row.id) throw new ScimError(409, "uniqueness", "Another user of this connection has this `userName`.")
    Object.assign(values, { userName: changes.userName, userNameKey })
  }
  for (const key of ["givenName", "familyName", "displayName", "externalId"] as const) {
    if (changes[key] !== undefined) values[key] = changes[key]
  }
  if (changes.active === false && row.active === true) Object.assign(values, { active: false, departedAt: await deactivate(scope, row) })
  if (changes.active === true && row.active !== true) {
    await activate(scope, row)
    Object.assign(values, { active: true, departedAt: null })
  }
  values.updatedAt = new Date()
  try {
    await store.update(scimUserModel, scoped(scope, row.id), values)
  } catch (error) {
    if (error instanceof StoreConflict) throw new ScimError(409, "uniqueness", "Another user of this connection has this `userName`.")
    throw error
  }
  return scimResponse(200, userResource(scope, { ...row, ...values }))
}

export async function listUsers(scope: Scope, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const filter = queryParam(url, "filter")
  return listResponse(scope, url, scimUserModel, filter === undefined ? { where: {} } : userSelection(filter), (row) => userResource(scope, row))
}

export async function getUser(scope: Scope, _request: Request, id: string): Promise<Response> {
  return scimResponse(200, userResource(scope, await resourceOf(scope, id)))
}

export async function createUser(scope: Scope, request: Request): Promise<Response> {
  const { store, connectionId, organizationId } = scope
  const body = await readJson(request)
  const changes = userAttributes(body)
  if (changes.userName === undefined) throw invalidValue("`userName` is required.")
  const email = emailOf(body, changes.userName)
  const domain = emailDomain(email)
  if (!domain || (await organizationOfDomain(store, domain)) !== organizationId) throw invalidValue("The address is not at a domain the organization proved.")
  const userNameKey = changes.userName.toLowerCase()
  if (await store.findOne(scimUserModel, { connectionId, organizationId, userNameKey })) throw taken()
  const name = changes.displayName ?? ([changes.givenName, changes.familyName].filter(Boolean).join(" ") || null)
  const user = await accountFor(scope, email, name)
  if (await store.findOne(scimUserModel, { connectionId, organizationId, userId: user.id })) throw taken()
  const now = new Date()
  const row: StoredRow = {
    id: crypto.randomUUID(),
    connectionId,
    organizationId,
    userId: user.id,
    userName: changes.userName,
    userNameKey,
    email,
    externalId: changes.externalId ?? null,
    active: true,
    givenName: changes.givenName ?? null,
    familyName: changes.familyName ?? null,
    displayName: changes.displayName ?? null,
    departedAt: null,
    createdAt: now,
    updatedAt: now,
  }
  try {
    await store.create(scimUserModel, row)
  } catch (error) {
    if (error instanceof StoreConflict) throw taken()
    throw error
  }
  if (changes.active === false) {
    const departedAt = await deactivate(scope, row)
    await store.update(scimUserModel, scoped(scope, row.id), { active: false, departedAt })
    Object.assign(row, { active: false, departedAt })
  } else {
    await activate(scope, row)
  }
  const resource = userResource(scope, row)
  return scimResponse(201, resource, { location: (resource.meta as { location: string }).location })
}

export async function replaceUser(scope: Scope, request: Request, id: string): Promise<Response> {
  const row = await resourceOf(scope, id)
  return change(scope, row, userAttributes(await readJson(request)))
}

export async function patchUser(scope: Scope, request: Request, id: string): Promise<Response> {
  const row = await resourceOf(scope, id)
  return change(scope, row, userPatch(await readJson(request)))
}

export async function deleteUser(scope: Scope, _request: Request, id: string): Promise<Response> {
  const row = await resourceOf(scope, id)
  if (row.active === true) await deactivate(scope, row)
  await scope.store.delete(scimUserModel, scoped(scope, row.id))
  const groups = await scope.store.findMany(scimGroupModel, { where: { connectionId: scope.connectionId, organizationId: scope.organizationId }, limit: 1000 })
  for (const group of groups) {
    const members = membersOf(group)
    if (members.includes(String(row.id))) await scope.store.update(scimGroupModel, scoped(scope, group.id), { members: members.filter((m) => m !== row.id), updatedAt: new Date() })
  }
  return scimResponse(204)
}
