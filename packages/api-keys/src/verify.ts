/**
 * Verifying the key a request carries, for the app's own API routes.
 *
 * In this order, and stopping at the first failure: the key is read from `Authorization: Bearer`
 * (or the configured header), and its format and checksum are checked, so that a made-up or mistyped
 * key costs no storage read; it is looked up by its SHA-256, and the stored hash compared with the
 * presented key's in constant time; a key expired, revoked (deleted) or past its rotation's overlap
 * does not exist for the store; a user's key whose user a module holds back (a suspension: the
 * admin module's) does not hold either. Then its own rate limit counts the use, in fixed windows, with the
 * store's atomic increment (never a read then a write, which concurrent requests would both pass):
 * over the limit, the answer says so with the seconds to wait, for a 429 with `Retry-After`.
 *
 * `lastUsedAt` is written at most once a minute per key, and only by the request that finds the
 * value it read still there: a write per request would make every API call a database write on one
 * hot row, and "last used" needs no finer grain than a minute.
 *
 * Any malformed input answers null, never a throw; a storage outage throws, as everywhere.
 *
 * @module
 */
import type { ModuleRequest, Store } from "@sesame/core"
import { constantTimeEqual, hashKey, parseKey } from "./format.js"
import { apiKeyUseModel } from "./models.js"
import type { Deps } from "./keys.js"

/** A key that holds: who it is for, and what it may do. Exactly one of `userId` and `organizationId` is set. */
export interface VerifiedApiKey {
  rateLimited: false
  keyId: string
  name: string
  userId: string | null
  organizationId: string | null
  scopes: string[]
  /** When the key stops (its expiry, or its rotation's overlap's end). */
  expires: Date
}

/** A key that holds but is over its rate limit: answer 429 with `Retry-After: retryAfter`. */
export interface RateLimitedApiKey {
  rateLimited: true
  keyId: string
  /** Seconds until the limit's window ends. */
  retryAfter: number
}

export type ApiKeyVerification = VerifiedApiKey | RateLimitedApiKey

/** How often `lastUsedAt` may be written, per key. */
const touchEvery = 60_000

const bearer = /^Bearer[ ]+([^\s]+)[ ]*$/i

/**
 * The key a request carries: `Authorization: Bearer <key>` when it is one of this prefix's, else
 * the configured header's; null when neither holds one. (An `Authorization` header may carry
 * something else, such as the app's own API tokens, beside a key in the configured header.)
 */
export function presentedKey(headers: { get(name: string): string | null }, header: string | null, prefix: string): string | null {
  const fromAuthorization = bearer.exec(headers.get("authorization") ?? "")?.[1]
  if (fromAuthorization && parseKey(fromAuthorization, prefix)) return fromAuthorization
  const fromHeader = header === null ? undefined : headers.get(header)?.trim()
  return fromHeader && parseKey(fromHeader, prefix) ? fromHeader : null
}

/** Counts one use of `keyId` in the window of `now`: the count, and when the window ends (ms). */
async function countUse(deps: Deps, store: Store, keyId: string, window: number, now: number): Promise<{ count: number; ends: number }> {
  const windowMs = window * 1000
  const start = Math.floor(now / windowMs) * windowMs
  const ends = start + windowMs
  const key = `${keyId}:${start}`
  if (deps.options.counters) return { count: (await deps.options.counters.incrementCounter(`api-keys:${key}`, new Date(ends))).count, ends }
  const row = await store.increment(apiKeyUseModel, { key }, "count", { create: { key, count: 0, expires: new Date(ends) } })
  return { count: row.count as number, ends }
}

/** Verifies the key `request` carries (see the module comment); null when there is none, or it does not hold. */
export async function verifyKey(deps: Deps, request: Pick<ModuleRequest, "headers" | "users">, store: Store): Promise<ApiKeyVerification | null> {
  const presented = presentedKey(request.headers, deps.options.header, deps.options.prefix)
  if (presented === null) return null
  const hash = await hashKey(presented)
  const row = await store.findOne(deps.model, { keyHash: hash })
  if (!row || typeof row.keyHash !== "string" || !constantTimeEqual(row.keyHash, hash)) return null
  const now = Date.now()
  // The store already hides expired rows; a clock between instances is not worth a key living on.
  if (!(row.expires instanceof Date) || row.expires.getTime() <= now) return null
  const keyId = row.id as string
  const userId = (row.userId as string | null) ?? null
  // A user's key acts as the user: not while a module holds them back (a suspension), which ending
  // their sessions does not reach. Without the adapter's users (no adapter), nothing can.
  if (userId !== null && request.users && !(await request.users.inGoodStanding(userId))) return null
  if (typeof row.rateLimitMax === "number" && typeof row.rateLimitWindow === "number") {
    const { count, ends } = await countUse(deps, store, keyId, row.rateLimitWindow, now)
    if (count > row.rateLimitMax) return { rateLimited: true, keyId, retryAfter: Math.max(1, Math.ceil((ends - now) / 1000)) }
  }
  const last = row.lastUsedAt instanceof Date ? row.lastUsedAt : null
  if (!last || now - last.getTime() >= touchEvery) {
    await store.update(deps.model, { id: keyId, lastUsedAt: last }, { lastUsedAt: new Date(now) })
  }
  return {
    rateLimited: false,
    keyId,
    name: row.name as string,
    userId,
    organizationId: (row.organizationId as string | null) ?? null,
    expires: row.expires,
    // A scope the app no longer lists grants nothing.
    scopes: Array.isArray(row.scopes) ? (row.scopes as string[]).filter((scope) => deps.options.scopes.has(scope)) : [],
  }
}

/** Whether `verification` is a key that holds and grants every one of `scopes`. */
export function hasScopes(verification: ApiKeyVerification | null, scopes: readonly string[]): verification is VerifiedApiKey {
  return verification !== null && !verification.rateLimited && scopes.every((scope) => verification.scopes.includes(scope))
}

/** What a key's session holds as `session["api-keys"]` (the `sessions` option). */
export type ApiKeySessionPart = {
  keyId: string
  name: string
  scopes: string[]
}

/**
 * The session a user's key stands for (the `sessions` option): its user until the key expires,
 * with the key's id, name and scopes; null for no key, one that does not hold, an organization's,
 * or one over its rate limit (which counts this use, as `verifyApiKey` does).
 */
export async function keySession(deps: Deps, request: ModuleRequest): Promise<{ userId: string; expires: Date; part: ApiKeySessionPart } | null> {
  const store = request.store
  if (!store) return null
  const verified = await verifyKey(deps, request, store)
  if (!verified || verified.rateLimited || verified.userId === null) return null
  return { userId: verified.userId, expires: verified.expires, part: { keyId: verified.keyId, name: verified.name, scopes: verified.scopes } }
}

/**
 * The key a session stands for (with the `sessions` option): its `keyId`, `name` and `scopes`;
 * undefined for a browser's session, or none.
 *
 * @example
 * ```ts
 * const key = keyOfSession(session)
 * if (key && !key.scopes.includes("projects:read")) return new Response("Forbidden", { status: 403 })
 * ```
 */
export function keyOfSession(session: object | null | undefined): ApiKeySessionPart | undefined {
  const part = (session as Record<string, unknown> | null | undefined)?.["api-keys"]
  if (typeof part !== "object" || part === null) return undefined
  const { keyId, name, scopes } = part as Partial<ApiKeySessionPart>
  return typeof keyId === "string" && typeof name === "string" && Array.isArray(scopes) ? { keyId, name, scopes } : undefined
}
