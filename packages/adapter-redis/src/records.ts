/**
 * Models to hash fields and back. Every field is a string: dates are milliseconds since the epoch
 * (so they round-trip exactly), numbers are decimal, booleans `1`/`0`. A null or absent value is
 * an absent field; in an update, null removes the field and undefined leaves it alone.
 *
 * @module
 */
import type { AuthFactor } from "@sesame/core"
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@sesame/core/adapters"

/** Hash fields as written: a string, or null to remove the field (updates only). */
export type Fields = Record<string, string | null>

/** A hash as the scripts return it: `[field, value, field, value, …]`, fields sorted. */
export type FlatRecord = string[]

type Value = string | number | boolean | Date | null | undefined

function encode(value: Exclude<Value, null | undefined>): string {
  if (value instanceof Date) return String(value.getTime())
  if (typeof value === "boolean") return value ? "1" : "0"
  return String(value)
}

/**
 * The fields of `source` named in `names`. Undefined values are left out; null values are left
 * out too unless `nulls` is set (updates), where they remove the field.
 */
export function fields(source: object, names: readonly string[], nulls = false): Fields {
  const values = source as Record<string, unknown>
  const out: Fields = {}
  for (const name of names) {
    const value = values[name] as Value
    if (value === undefined) continue
    if (value === null) {
      if (nulls) out[name] = null
      continue
    }
    out[name] = encode(value)
  }
  return out
}

export function toObject(flat: FlatRecord): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!
  return out
}

const date = (value: string | undefined): Date | null => (value === undefined ? null : new Date(Number(value)))

export const userFields = ["id", "name", "email", "emailVerified", "image"] as const
/** What `updateUser` may change (never the id). */
export const userUpdateFields = ["name", "email", "emailVerified", "image"] as const

export function toUser(flat: FlatRecord): AdapterUser {
  const row = toObject(flat)
  return { id: row.id!, name: row.name ?? null, email: row.email!, emailVerified: date(row.emailVerified), image: row.image ?? null }
}

/**
 * How the adapter writes and reads a user's record: the contract's fields only (`plainUsers`), or
 * with the app's declared fields too (`userFieldRecords`, for `withUserFields`).
 */
export interface UserRecords {
  /** The fields of a new user's record (`user` has its id). */
  create(user: AdapterUser): Fields
  /** The fields an update sets (null removes one). */
  update(user: Partial<AdapterUser>): Fields
  /** The user a record holds. */
  read(flat: FlatRecord): AdapterUser
}

/** The contract's fields only: other fields of a user are neither written nor read. */
export const plainUsers: UserRecords = {
  create: (user) => fields(user, userFields),
  update: (user) => fields(user, userUpdateFields, true),
  read: toUser,
}

/** Account fields other than the keys: the token set, which `updateAccount` may replace. */
export const accountTokenFields = ["refresh_token", "access_token", "expires_at", "token_type", "scope", "id_token", "session_state"] as const
export const accountFields = ["userId", "type", "provider", "providerAccountId", ...accountTokenFields] as const

export function toAccount(flat: FlatRecord): AdapterAccount {
  const { expires_at, ...rest } = toObject(flat)
  return { ...rest, ...(expires_at === undefined ? {} : { expires_at: Number(expires_at) }) } as AdapterAccount
}

export const sessionFields = ["sessionToken", "userId", "expires", "createdAt", "lastUsedAt", "userAgent", "factors"] as const
/** What `updateSession` may change (not the token, nor the owner, nor the factors of its sign-in). */
export const sessionUpdateFields = ["expires", "createdAt", "lastUsedAt", "userAgent"] as const

/**
 * A new session's fields. Its factors are one field, comma-separated (`password,totp`), as the SQL
 * adapters keep them.
 */
export function sessionRecord(session: AdapterSession): Fields {
  return fields({ ...session, factors: session.factors?.join(",") }, sessionFields)
}

export function toSession(flat: FlatRecord): AdapterSession {
  const row = toObject(flat)
  return {
    sessionToken: row.sessionToken!,
    userId: row.userId!,
    expires: date(row.expires)!,
    ...(row.createdAt === undefined ? {} : { createdAt: date(row.createdAt) }),
    ...(row.lastUsedAt === undefined ? {} : { lastUsedAt: date(row.lastUsedAt) }),
    ...(row.userAgent === undefined ? {} : { userAgent: row.userAgent }),
    ...(row.factors === undefined ? {} : { factors: (row.factors === "" ? [] : row.factors.split(",")) as AuthFactor[] }),
  }
}

export const verificationTokenFields = ["identifier", "token", "expires"] as const

export function toVerificationToken(flat: FlatRecord): VerificationToken {
  const row = toObject(flat)
  return { identifier: row.identifier!, token: row.token!, expires: date(row.expires)! }
}

export const authenticatorFields = [
  "credentialID",
  "userId",
  "providerAccountId",
  "credentialPublicKey",
  "counter",
  "credentialDeviceType",
  "credentialBackedUp",
  "transports",
  "name",
  "createdAt",
] as const

export function toAuthenticator(flat: FlatRecord): AdapterAuthenticator {
  const row = toObject(flat)
  return {
    credentialID: row.credentialID!,
    userId: row.userId!,
    providerAccountId: row.providerAccountId!,
    credentialPublicKey: row.credentialPublicKey!,
    counter: Number(row.counter),
    credentialDeviceType: row.credentialDeviceType!,
    credentialBackedUp: row.credentialBackedUp === "1",
    transports: row.transports ?? null,
    ...(row.name === undefined ? {} : { name: row.name }),
    ...(row.createdAt === undefined ? {} : { createdAt: date(row.createdAt) }),
  }
}
