/**
 * Rows to models, for every SQL dialect. The column set is the same everywhere; what differs is how
 * a driver hands back a date (SQLite: milliseconds since the epoch; node-postgres: a `Date`;
 * mysql2 with `dateStrings`: `YYYY-MM-DD hh:mm:ss.fff` in UTC), a boolean (0/1 or true/false) and a
 * 64-bit integer (a number or a string), and {@link readDate}, `Number` and `Boolean` absorb those
 * differences. An account's or session's absent optional fields are left out of the model rather
 * than set to null. A session's factors are one text column ({@link writeFactors}).
 *
 * @module
 */
import type { AuthFactor } from "@sesame/core"
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@sesame/core/adapters"

export type Row = Record<string, unknown>

/** User columns an update may set. */
export const userColumns = ["name", "email", "emailVerified", "image"] as const
/** Account columns other than the keys: the token set, which `updateAccount` may replace. */
export const accountTokenColumns = ["refresh_token", "access_token", "expires_at", "token_type", "scope", "id_token", "session_state"] as const
/** Account columns, in the order the adapters insert them. */
export const accountColumns = ["id", "userId", "type", "provider", "providerAccountId", ...accountTokenColumns] as const
/** Authenticator columns, in the order the adapters insert them. */
export const authenticatorColumns = [
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
/** Session columns an update may set. A session's factors are those of its sign-in: set once, by `createSession`. */
export const sessionColumns = ["expires", "createdAt", "lastUsedAt", "userAgent"] as const

const dateTime = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z?$/

/** A stored date as a `Date`, or null. A date-time string without a zone is read as UTC. */
export function readDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return new Date(value.getTime())
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value))
  if (typeof value === "string") {
    const m = dateTime.exec(value)
    if (m) {
      const [, y, mo, d, h, mi, s, frac = ""] = m
      const ms = Number(frac.padEnd(3, "0").slice(0, 3))
      return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms))
    }
    if (/^-?\d+$/.test(value)) return new Date(Number(value))
  }
  throw new TypeError(`Cannot read a date from the stored value ${JSON.stringify(String(value))}.`)
}

/**
 * A session's factors as stored: comma-separated, as an authenticator's `transports` are (a
 * factor's name never holds a comma), or null when the session has none.
 */
export function writeFactors(factors: AuthFactor[] | null | undefined): string | null {
  return factors ? factors.join(",") : null
}

/** Stored factors as a list, or null when none were stored. */
export function readFactors(value: unknown): AuthFactor[] | null {
  if (value === null || value === undefined) return null
  const text = String(value)
  return (text === "" ? [] : text.split(",")) as AuthFactor[]
}

function withoutNulls(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined))
}

export function toUser(row: Row): AdapterUser {
  return {
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    email: row.email as string,
    emailVerified: readDate(row.emailVerified),
    image: (row.image as string | null) ?? null,
  }
}

/** The user of a joined row whose user columns are prefixed `u_`. */
export function toPrefixedUser(row: Row): AdapterUser {
  return toUser({ id: row.u_id, name: row.u_name, email: row.u_email, emailVerified: row.u_emailVerified, image: row.u_image })
}

export function toAccount(row: Row): AdapterAccount {
  const { id: _id, expires_at, ...rest } = row
  return withoutNulls({ ...rest, expires_at: expires_at === null || expires_at === undefined ? null : Number(expires_at) }) as unknown as AdapterAccount
}

export function toSession(row: Row): AdapterSession {
  return withoutNulls({
    sessionToken: row.sessionToken,
    userId: row.userId,
    expires: readDate(row.expires),
    createdAt: readDate(row.createdAt),
    lastUsedAt: readDate(row.lastUsedAt),
    userAgent: row.userAgent,
    factors: readFactors(row.factors),
  }) as unknown as AdapterSession
}

export function toVerificationToken(row: Row): VerificationToken {
  return { identifier: row.identifier as string, token: row.token as string, expires: readDate(row.expires)! }
}

export function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: row.credentialID as string,
    userId: row.userId as string,
    providerAccountId: row.providerAccountId as string,
    credentialPublicKey: row.credentialPublicKey as string,
    counter: Number(row.counter),
    credentialDeviceType: row.credentialDeviceType as string,
    credentialBackedUp: Boolean(row.credentialBackedUp),
    transports: (row.transports as string | null) ?? null,
    ...(row.name !== null && row.name !== undefined ? { name: row.name as string } : {}),
    ...(row.createdAt !== null && row.createdAt !== undefined ? { createdAt: readDate(row.createdAt)! } : {}),
  }
}
