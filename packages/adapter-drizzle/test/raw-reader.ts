/**
 * Raw reads of the tables for the conformance suite: plain SQL through the driver, bypassing the
 * adapter and Drizzle. Driver values are normalised to what the models hold (pg gives `bigint`s
 * as strings, MariaDB and SQLite give booleans as 0/1, SQLite gives dates as milliseconds), then
 * mapped as the adapter maps rows (the built-in models' rows as the other SQL adapters' readers
 * map them).
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { defaultTableNames, type TableNames } from "@sesame/adapter-drizzle"
import { toAccount, toAuthenticator, toSession, toUser, toVerificationToken } from "../src/rows.js"
import type { Row } from "../src/store/types.js"
import { toCounter, toPassword, toSigningKey, toTwoFactor } from "../../sql-common/test/shared/built-in-rows.js"

/** Runs `sql` (with `?` placeholders) and resolves with its rows. */
export type Query = (sql: string, params: unknown[]) => Promise<Row[]>

const dates = new Set(["emailVerified", "expires", "createdAt", "lastUsedAt", "updatedAt", "enabledAt", "devicesRevokedAt"])
const numbers = new Set(["expires_at", "counter", "count"])

function normalise(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => {
      if (value === null || value === undefined) return [key, null]
      if (dates.has(key)) return [key, value instanceof Date ? value : new Date(Number(value))]
      if (numbers.has(key)) return [key, Number(value)]
      if (key === "credentialBackedUp") return [key, value === true || Number(value) === 1]
      return [key, value]
    }),
  )
}

/** `quote` quotes an identifier in the dialect (`"x"` or `` `x` ``). */
export function rawReader(query: Query, quote: (name: string) => string, tables: Partial<TableNames> = {}, disconnect?: () => Promise<void>): AdapterTestDb {
  const t = { ...defaultTableNames, ...tables }
  const q = (...names: string[]) => names.map(quote)
  const read = async <T>(map: (row: Row) => T, sql: string, ...params: unknown[]): Promise<T | null> => {
    const [row] = await query(sql, params)
    return row ? map(normalise(row)) : null
  }
  return {
    disconnect,
    user: (id) => read(toUser, `SELECT * FROM ${quote(t.users)} WHERE ${quote("id")} = ?`, id),
    account: ({ provider, providerAccountId }) => {
      const [provider_, account] = q("provider", "providerAccountId")
      return read(toAccount, `SELECT * FROM ${quote(t.accounts)} WHERE ${provider_} = ? AND ${account} = ?`, provider, providerAccountId)
    },
    session: (token) => read(toSession, `SELECT * FROM ${quote(t.sessions)} WHERE ${quote("sessionToken")} = ?`, token),
    verificationToken: ({ identifier, token }) => {
      const [identifier_, token_] = q("identifier", "token")
      return read(toVerificationToken, `SELECT * FROM ${quote(t.verificationTokens)} WHERE ${identifier_} = ? AND ${token_} = ?`, identifier, token)
    },
    authenticator: (id) => read(toAuthenticator, `SELECT * FROM ${quote(t.authenticators)} WHERE ${quote("credentialID")} = ?`, id),
    password: (userId) => read(toPassword, `SELECT * FROM ${quote(t.passwords)} WHERE ${quote("userId")} = ?`, userId),
    counter: (key) => read(toCounter, `SELECT * FROM ${quote(t.counters)} WHERE ${quote("key")} = ?`, key),
    twoFactor: (userId) => read(toTwoFactor, `SELECT * FROM ${quote(t.twoFactors)} WHERE ${quote("userId")} = ?`, userId),
    recoveryCodes: async (userId) =>
      (await query(`SELECT ${quote("hash")} FROM ${quote(t.recoveryCodes)} WHERE ${quote("userId")} = ?`, [userId])).map((row) => row.hash as string),
    signingKey: (id) => read(toSigningKey, `SELECT * FROM ${quote(t.signingKeys)} WHERE ${quote("id")} = ?`, id),
  }
}

/** `?` placeholders to PostgreSQL's `$1, $2, …`. */
export const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}
