/**
 * Creating, listing, revoking and rotating keys, for the signed-in user (a cookie session: an API
 * key is never anyone here, see `routes.ts`).
 *
 * Who may manage a key: its user, or, for an organization's key, a member whose roles grant the
 * configured permission there, asked of the organizations module at every call (so a member
 * removed or demoted loses it at once, while the organization keeps its keys). A key id that names
 * a key the caller may not manage is `NotFound`, as an id that names nothing.
 *
 * A session acting on someone's behalf (an admin impersonating a user) may list and revoke, never
 * create or rotate: that would hand the actor a credential of the user's that outlives the
 * impersonation.
 *
 * @module
 */
import type { ModuleRequest, Store, StoredRow, Where } from "@sesame/core"
import { ApiKeyError } from "./errors.js"
import { report } from "./events.js"
import { hashKey, newKey } from "./format.js"
import type { ApiKeyModel } from "./models.js"
import { rateLimitOf, type ResolvedApiKeysOptions } from "./options.js"

/** What the actions work with. */
export interface Deps {
  options: ResolvedApiKeysOptions
  model: ApiKeyModel
}

/** A key as lists show it: never the key, nor its hash. */
export interface ApiKeyInfo {
  id: string
  name: string
  /** The prefix and the first characters, to tell keys apart (`sesame_Ab3x`). */
  start: string
  scopes: string[]
  userId: string | null
  organizationId: string | null
  createdBy: string | null
  createdAt: Date
  expiresAt: Date
  lastUsedAt: Date | null
  rateLimit: { max: number; window: number } | null
  /** Once rotated: its successor; it stops at `expiresAt`. */
  replacedBy: string | null
}

/** A key just made: the key itself is in this answer and nowhere else, ever. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string
}

export interface CreateApiKeyInput {
  name: string
  /** Of the configured `scopes`. Default none. */
  scopes?: readonly string[]
  /** Seconds from now; default and maximum are the options'. */
  expiresIn?: number
  /** `{ max, window }`: at most `max` uses per `window` seconds; null for none. Default the options' `rateLimit`. */
  rateLimit?: { max: number; window: number } | null
  /** Makes the organization's key instead of the user's (needs `organizations`). */
  organizationId?: string
}

/** Who owns keys: a user, or an organization. */
type Owner = { userId: string; organizationId: null } | { userId: null; organizationId: string }

const idPattern = /^[A-Za-z0-9_-]{1,64}$/

export function storeOf(request: Pick<ModuleRequest, "store">): Store {
  if (!request.store) throw new TypeError("api-keys: no store (the module is off without one).")
  return request.store
}

export function infoOf(row: StoredRow): ApiKeyInfo {
  const max = row.rateLimitMax as number | null
  const window = row.rateLimitWindow as number | null
  return {
    id: row.id as string,
    name: row.name as string,
    start: row.start as string,
    scopes: Array.isArray(row.scopes) ? (row.scopes as string[]) : [],
    userId: (row.userId as string | null) ?? null,
    organizationId: (row.organizationId as string | null) ?? null,
    createdBy: (row.createdBy as string | null) ?? null,
    createdAt: row.createdAt as Date,
    expiresAt: row.expires as Date,
    lastUsedAt: (row.lastUsedAt as Date | null) ?? null,
    rateLimit: max !== null && window !== null ? { max, window } : null,
    replacedBy: (row.replacedBy as string | null) ?? null,
  }
}

/** The signed-in user's id: `NotSignedIn` otherwise. */
async function actorOf(request: ModuleRequest): Promise<string> {
  const user = await request.user()
  if (typeof user?.id !== "string") throw new ApiKeyError("NotSignedIn", "Sign in first.")
  return user.id
}

/** Refuses unless the caller may manage `organizationId`'s keys. */
async function checkOrganization(deps: Deps, request: ModuleRequest, organizationId: unknown): Promise<string> {
  if (!deps.options.organizations) throw new ApiKeyError("NoOrganizations", "Organization keys need the `organizations` option.")
  if (typeof organizationId !== "string" || !idPattern.test(organizationId)) throw new ApiKeyError("InvalidInput", "`organizationId` must be an id.")
  if (!(await deps.options.organizations.hasPermission(request, organizationId))) {
    throw new ApiKeyError("Forbidden", "Only the organization's members with the permission to manage its keys may do this.")
  }
  return organizationId
}

/** The owner an action names: the organization (checked), else the signed-in user. */
async function ownerOf(deps: Deps, request: ModuleRequest, actorId: string, organizationId: unknown): Promise<Owner> {
  if (organizationId === undefined || organizationId === null || organizationId === "") return { userId: actorId, organizationId: null }
  return { userId: null, organizationId: await checkOrganization(deps, request, organizationId) }
}

/** The key `keyId` if the caller may manage it; `NotFound` otherwise. */
async function managedKey(deps: Deps, request: ModuleRequest, actorId: string, keyId: unknown): Promise<StoredRow> {
  if (typeof keyId !== "string" || !idPattern.test(keyId)) throw new ApiKeyError("InvalidInput", "`keyId` must be a key's id.")
  const row = await storeOf(request).findOne(deps.model, { id: keyId })
  if (!row) throw new ApiKeyError("NotFound", "No such key.")
  if (row.userId !== null && row.userId !== undefined) {
    if (row.userId === actorId) return row
  } else if (typeof row.organizationId === "string" && deps.options.organizations && (await deps.options.organizations.hasPermission(request, row.organizationId))) {
    return row
  }
  throw new ApiKeyError("NotFound", "No such key.")
}

function nameOf(value: unknown): string {
  if (typeof value !== "string") throw new ApiKeyError("InvalidInput", "`name` must be text.")
  const name = value.trim()
  // Control and format characters (bidi overrides, zero-width ones) would make a name on a page or in a log read as another.
  if (name.length === 0 || name.length > 100 || /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(name)) {
    throw new ApiKeyError("InvalidInput", "`name` must be 1 to 100 characters, without control or formatting characters.")
  }
  return name
}

function scopesOf(options: ResolvedApiKeysOptions, value: unknown): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || value.length > 100 || value.some((scope) => typeof scope !== "string")) throw new ApiKeyError("InvalidInput", "`scopes` must be a list of scope names.")
  const unknown = value.filter((scope: string) => !options.scopes.has(scope))
  if (unknown.length > 0) throw new ApiKeyError("InvalidInput", `Unknown scopes: ${unknown.slice(0, 5).join(", ")}.`)
  return [...new Set(value as string[])]
}

function expiresInOf(options: ResolvedApiKeysOptions, value: unknown): number {
  if (value === undefined || value === null) return options.expiresIn.default
  if (typeof value !== "number" || !Number.isInteger(value) || value < 60 || value > options.expiresIn.max) {
    throw new ApiKeyError("InvalidInput", `\`expiresIn\` must be a whole number of seconds from 60 to ${options.expiresIn.max}.`)
  }
  return value
}

function rateLimitInput(options: ResolvedApiKeysOptions, value: unknown): { max: number; window: number } | null {
  if (value === undefined) return options.rateLimit
  if (value === null) return null
  const limit = rateLimitOf(value)
  if (!limit) throw new ApiKeyError("InvalidInput", "`rateLimit` must be { max: 1 to 1000000 uses, window: 1 to 86400 seconds }, or null.")
  return limit
}

async function refuseActing(request: ModuleRequest): Promise<void> {
  if (await request.acting()) throw new ApiKeyError("Acting", "A session acting on someone's behalf cannot make their keys.")
}

/** A row for a new key, and the key. */
async function newRow(deps: Deps, fields: { owner: Owner; createdBy: string; name: string; scopes: string[]; lifetime: number; rateLimit: { max: number; window: number } | null }) {
  const { key, start } = newKey(deps.options.prefix)
  const now = new Date()
  const row: StoredRow = {
    id: crypto.randomUUID(),
    userId: fields.owner.userId,
    organizationId: fields.owner.organizationId,
    createdBy: fields.createdBy,
    name: fields.name,
    scopes: fields.scopes,
    start,
    keyHash: await hashKey(key),
    createdAt: now,
    expires: new Date(now.getTime() + fields.lifetime * 1000),
    lastUsedAt: null,
    rateLimitMax: fields.rateLimit?.max ?? null,
    rateLimitWindow: fields.rateLimit?.window ?? null,
    replacedBy: null,
  }
  return { key, row }
}

const ownerWhere = (owner: Owner): Where => (owner.userId !== null ? { userId: owner.userId } : { organizationId: owner.organizationId })

/**
 * The count before the insert spares the common refusal a write, but concurrent creates all pass
 * it: so the count is taken again after the insert, and a key that finds more than `maxKeys` is
 * deleted and refused. Of creates racing one another some may be refused that one at a time would
 * not be, but never can more than `maxKeys` stay: the last survivor to count saw every survivor.
 */
async function keepWithinMax(deps: Deps, store: Store, owner: Owner, id: string): Promise<void> {
  if ((await store.count(deps.model, ownerWhere(owner))) <= deps.options.maxKeys) return
  await store.delete(deps.model, { id })
  throw new ApiKeyError("TooManyKeys", `At most ${deps.options.maxKeys} keys: revoke one first.`)
}

export async function createApiKey(deps: Deps, request: ModuleRequest, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const actorId = await actorOf(request)
  await refuseActing(request)
  if (typeof input !== "object" || input === null) throw new ApiKeyError("InvalidInput", "Give the key's `name`, and optionally `scopes`, `expiresIn`, `rateLimit`.")
  const owner = await ownerOf(deps, request, actorId, input.organizationId)
  const fields = {
    owner,
    createdBy: actorId,
    name: nameOf(input.name),
    scopes: scopesOf(deps.options, input.scopes),
    lifetime: expiresInOf(deps.options, input.expiresIn),
    rateLimit: rateLimitInput(deps.options, input.rateLimit),
  }
  const store = storeOf(request)
  if ((await store.count(deps.model, ownerWhere(owner))) >= deps.options.maxKeys) throw new ApiKeyError("TooManyKeys", `At most ${deps.options.maxKeys} keys: revoke one first.`)
  const { key, row } = await newRow(deps, fields)
  const stored = await store.create(deps.model, row)
  await keepWithinMax(deps, store, owner, row.id as string)
  await report(deps.options, request, { type: "api-key.created", keyId: row.id as string, name: fields.name, ...owner, actorId })
  return { ...infoOf(stored), key }
}

/** The keys of the signed-in user, or of `organizationId` for one who may manage them; newest first. */
export async function listApiKeys(deps: Deps, request: ModuleRequest, query: { organizationId?: string } = {}): Promise<ApiKeyInfo[]> {
  const actorId = await actorOf(request)
  const owner = await ownerOf(deps, request, actorId, query?.organizationId)
  const rows = await storeOf(request).findMany(deps.model, { where: ownerWhere(owner), orderBy: [{ field: "createdAt", direction: "desc" }], limit: deps.options.maxKeys * 2 })
  return rows.map(infoOf)
}

/** Revokes `keyId` at once, and the key it replaced if that one is still in its overlap. */
export async function revokeApiKey(deps: Deps, request: ModuleRequest, keyId: string): Promise<true> {
  const actorId = await actorOf(request)
  const row = await managedKey(deps, request, actorId, keyId)
  await storeOf(request).transaction(async (tx) => {
    await tx.delete(deps.model, { id: row.id as string })
    await tx.delete(deps.model, { replacedBy: row.id as string })
  })
  const info = infoOf(row)
  await report(deps.options, request, { type: "api-key.revoked", keyId: info.id, name: info.name, userId: info.userId, organizationId: info.organizationId, actorId })
  return true
}

/**
 * Replaces `keyId` with a new key of the same name, owner, scopes (those the app still lists), rate limit and lifetime; the old
 * one keeps working for `rotationOverlap` (never past its own expiry), then stops. A key already
 * rotated is not rotated again (`InvalidInput`): rotate its successor.
 */
export async function rotateApiKey(deps: Deps, request: ModuleRequest, keyId: string): Promise<CreatedApiKey & { previousStopsAt: Date }> {
  const actorId = await actorOf(request)
  await refuseActing(request)
  const old = await managedKey(deps, request, actorId, keyId)
  if (old.replacedBy) throw new ApiKeyError("InvalidInput", "This key was rotated already: rotate its successor.")
  const info = infoOf(old)
  const owner: Owner = info.userId !== null ? { userId: info.userId, organizationId: null } : { userId: null, organizationId: info.organizationId! }
  const lifetime = Math.min(deps.options.expiresIn.max, Math.max(60, Math.round((info.expiresAt.getTime() - info.createdAt.getTime()) / 1000)))
  const scopes = info.scopes.filter((scope) => deps.options.scopes.has(scope))
  const { key, row } = await newRow(deps, { owner, createdBy: actorId, name: info.name, scopes, lifetime, rateLimit: info.rateLimit })
  const stopsAt = new Date(Math.min(info.expiresAt.getTime(), Date.now() + deps.options.rotationOverlap * 1000))
  const stored = await storeOf(request).transaction(async (tx) => {
    // Only while it is not replaced yet: of two rotations at once, one wins and the other changes nothing.
    const changed = await tx.update(deps.model, { id: info.id, replacedBy: null }, { replacedBy: row.id as string, expires: stopsAt })
    if (changed !== 1) throw new ApiKeyError("InvalidInput", "This key was rotated already: rotate its successor.")
    // The key it replaced, still in its own overlap, stops now: a chain of rotations keeps at most
    // two keys working, so that revoking the newest (and the one before it) ends them all.
    await tx.delete(deps.model, { replacedBy: info.id })
    return tx.create(deps.model, row)
  })
  await report(deps.options, request, { type: "api-key.rotated", keyId: info.id, name: info.name, ...owner, actorId, replacedBy: row.id as string, stopsAt })
  return { ...infoOf(stored), key, previousStopsAt: stopsAt }
}
