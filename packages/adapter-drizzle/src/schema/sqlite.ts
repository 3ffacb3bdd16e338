/**
 * `@sesame/adapter-drizzle/sqlite`: Sesame's tables for SQLite, as Drizzle tables. Put them in your
 * Drizzle schema (`export * from "@sesame/adapter-drizzle/sqlite"`) and drizzle-kit creates them.
 *
 * The very schema of `@sesame/adapter-sqlite` (a database made by either works with the other):
 * text keys, dates as milliseconds since the epoch in `INTEGER`s, booleans as 0/1, foreign keys
 * to the user cascading on delete (SQLite enforces them once `PRAGMA foreign_keys = ON`, which
 * the adapter sets on the connection it is given), the same unique and lookup indexes.
 *
 * To add columns, build the users table from `sqliteUserColumns()` and pass it to `sqliteTables`,
 * which makes the other tables refer to it; give the adapter the result as `tables`.
 *
 * @module
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core"
import { tableNames, type TableNames } from "./names.js"

/** What the other tables and the adapter need of a users table. */
type UsersTable = SQLiteTable & { id: SQLiteColumn; email: SQLiteColumn }

const time = (name: string) => integer(name, { mode: "timestamp_ms" })

/** The users table's columns, for a users table with columns of your own. */
export function sqliteUserColumns() {
  return {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: text("name"),
    email: text("email").notNull(),
    emailVerified: time("emailVerified"),
    image: text("image"),
  }
}

/** The users table's email index, for a users table with columns of your own. */
export const sqliteUserIndexes = (name: string) => (t: { email: SQLiteColumn }) => [uniqueIndex(`${name}_email_key`).on(t.email)]

function usersTable(name: string) {
  return sqliteTable(name, sqliteUserColumns(), sqliteUserIndexes(name))
}

type DefaultUsers = ReturnType<typeof usersTable>

export interface SqliteTablesOptions<U extends UsersTable> {
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  names?: Partial<TableNames>
  /** Your users table, built from `sqliteUserColumns()` plus columns of your own. */
  users?: U
}

/** The ten tables, named as `options` say. */
export function sqliteTables<U extends UsersTable = DefaultUsers>(options: SqliteTablesOptions<U> = {}) {
  const n = tableNames(options.names)
  const users = options.users ?? (usersTable(n.users) as unknown as U)
  const userId = () =>
    text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" })

  const accounts = sqliteTable(
    n.accounts,
    {
      id: text("id")
        .primaryKey()
        .$defaultFn(() => crypto.randomUUID()),
      userId: userId(),
      type: text("type").notNull(),
      provider: text("provider").notNull(),
      providerAccountId: text("providerAccountId").notNull(),
      refresh_token: text("refresh_token"),
      access_token: text("access_token"),
      expires_at: integer("expires_at", { mode: "number" }),
      token_type: text("token_type"),
      scope: text("scope"),
      id_token: text("id_token"),
      session_state: text("session_state"),
    },
    (t) => [uniqueIndex(`${n.accounts}_provider_key`).on(t.provider, t.providerAccountId), index(`${n.accounts}_userId_idx`).on(t.userId)],
  )

  const sessions = sqliteTable(
    n.sessions,
    {
      sessionToken: text("sessionToken").primaryKey(),
      userId: userId(),
      expires: time("expires").notNull(),
      createdAt: time("createdAt"),
      lastUsedAt: time("lastUsedAt"),
      userAgent: text("userAgent"),
      /** How the user signed in, comma-separated (`password,totp`); null when not recorded. */
      factors: text("factors"),
    },
    (t) => [index(`${n.sessions}_userId_idx`).on(t.userId)],
  )

  const verificationTokens = sqliteTable(
    n.verificationTokens,
    {
      identifier: text("identifier").notNull(),
      token: text("token").notNull(),
      expires: time("expires").notNull(),
    },
    (t) => [primaryKey({ columns: [t.identifier, t.token] })],
  )

  const authenticators = sqliteTable(
    n.authenticators,
    {
      credentialID: text("credentialID").primaryKey(),
      userId: userId(),
      providerAccountId: text("providerAccountId").notNull(),
      credentialPublicKey: text("credentialPublicKey").notNull(),
      counter: integer("counter", { mode: "number" }).notNull(),
      credentialDeviceType: text("credentialDeviceType").notNull(),
      credentialBackedUp: integer("credentialBackedUp", { mode: "boolean" }).notNull(),
      transports: text("transports"),
      name: text("name"),
      createdAt: time("createdAt"),
    },
    (t) => [index(`${n.authenticators}_userId_idx`).on(t.userId)],
  )

  const passwords = sqliteTable(n.passwords, {
    userId: userId().primaryKey(),
    hash: text("hash").notNull(),
    updatedAt: time("updatedAt").notNull(),
  })

  // `count` before `expires`: see `counters` in `../tables.ts`.
  const counters = sqliteTable(n.counters, {
    key: text("key").primaryKey(),
    count: integer("count", { mode: "number" }).notNull(),
    expires: time("expires").notNull(),
  })

  // The secret is a compact JWE of a few hundred characters: unbounded text.
  const twoFactors = sqliteTable(n.twoFactors, {
    userId: userId().primaryKey(),
    method: text("method", { enum: ["totp", "email"] }).notNull(),
    secret: text("secret"),
    enabledAt: time("enabledAt").notNull(),
    devicesRevokedAt: time("devicesRevokedAt"),
  })

  // The primary key leads with userId, so it also serves the lookups of a user's codes.
  const recoveryCodes = sqliteTable(
    n.recoveryCodes,
    {
      userId: userId(),
      hash: text("hash").notNull(),
    },
    (t) => [primaryKey({ columns: [t.userId, t.hash] })],
  )

  // The keys that sign API tokens: the app's, tied to no user. The private key is a sealed JWK (a
  // compact JWE, about 2.5 KB for an RSA key): unbounded text.
  const signingKeys = sqliteTable(n.signingKeys, {
    id: text("id").primaryKey(),
    algorithm: text("algorithm").notNull(),
    publicKey: text("publicKey").notNull(),
    privateKey: text("privateKey").notNull(),
    createdAt: time("createdAt").notNull(),
  })

  return { users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys }
}

const defaults = sqliteTables()
export const users = defaults.users
export const accounts = defaults.accounts
export const sessions = defaults.sessions
export const verificationTokens = defaults.verificationTokens
export const authenticators = defaults.authenticators
export const passwords = defaults.passwords
export const counters = defaults.counters
export const twoFactors = defaults.twoFactors
export const recoveryCodes = defaults.recoveryCodes
export const signingKeys = defaults.signingKeys
