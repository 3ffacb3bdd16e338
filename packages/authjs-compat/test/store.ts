/**
 * Reads Auth.js's tables with the raw driver, never through the adapter under test, so that the
 * tests check what was really written: rows as each database returns them, turned into one shape
 * (ids as strings, dates as `Date`s, whatever the column type: PostgreSQL and MariaDB give `Date`s,
 * the Kysely adapter stores ISO strings in SQLite, the Drizzle schema milliseconds).
 */
import type { Place, Row } from "./places.js"

/** The names of Auth.js's tables in one adapter's schema. */
export interface TableNames {
  users: string
  accounts: string
  sessions: string
  verificationTokens: string
  /** Absent when the adapter has no authenticators. */
  authenticators?: string
}

export interface StoredUser {
  id: string
  name: string | null
  email: string
  emailVerified: Date | null
}

export interface StoredAccount {
  userId: string
  type: string
  provider: string
  providerAccountId: string
  access_token: string | null
}

export interface StoredSession {
  sessionToken: string
  userId: string
  expires: Date
}

export interface StoredToken {
  identifier: string
  token: string
  expires: Date
}

export interface StoredAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
}

export interface RawStore {
  users(): Promise<StoredUser[]>
  accounts(): Promise<StoredAccount[]>
  sessions(): Promise<StoredSession[]>
  verificationTokens(): Promise<StoredToken[]>
  authenticators(): Promise<StoredAuthenticator[]>
  /** Moves every session's expiry to a minute ago. */
  expireSessions(): Promise<void>
  /** Empties every table (between tests). */
  clear(): Promise<void>
}

/** How the adapter's schema stores a date in this place: what a raw write must send. */
export type DateParam = (date: Date) => unknown

function asDate(value: unknown): Date {
  if (value instanceof Date) return value
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value))
  if (typeof value === "string") return new Date(/^\d+$/.test(value) ? Number(value) : value)
  throw new Error(`Not a date: ${String(value)}`)
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))

export function rawStore(place: Place, tables: TableNames, dateParam: DateParam): RawStore {
  const q = place.quote
  const all = (table: string) => place.query(`SELECT * FROM ${q(table)}`)
  return {
    async users() {
      return (await all(tables.users)).map((row: Row) => ({
        id: String(row.id),
        name: text(row.name),
        email: String(row.email),
        emailVerified: row.emailVerified === null || row.emailVerified === undefined ? null : asDate(row.emailVerified),
      }))
    },
    async accounts() {
      return (await all(tables.accounts)).map((row) => ({
        userId: String(row.userId),
        type: String(row.type),
        provider: String(row.provider),
        providerAccountId: String(row.providerAccountId),
        access_token: text(row.access_token),
      }))
    },
    async sessions() {
      return (await all(tables.sessions)).map((row) => ({ sessionToken: String(row.sessionToken), userId: String(row.userId), expires: asDate(row.expires) }))
    },
    async verificationTokens() {
      return (await all(tables.verificationTokens)).map((row) => ({ identifier: String(row.identifier), token: String(row.token), expires: asDate(row.expires) }))
    },
    async authenticators() {
      if (!tables.authenticators) return []
      return (await all(tables.authenticators)).map((row) => ({
        credentialID: String(row.credentialID),
        userId: String(row.userId),
        providerAccountId: String(row.providerAccountId),
        counter: Number(row.counter),
      }))
    },
    async expireSessions() {
      await place.query(`UPDATE ${q(tables.sessions)} SET ${q("expires")} = ?`, [dateParam(new Date(Date.now() - 60_000))])
    },
    async clear() {
      // Children first: some schemas have foreign keys to the users table.
      const order = [tables.authenticators, tables.sessions, tables.accounts, tables.verificationTokens, tables.users]
      for (const table of order) if (table) await place.query(`DELETE FROM ${q(table)}`)
    },
  }
}
