/**
 * `@sesame/adapter-drizzle/mysql`: Sesame's tables for MySQL 8 and MariaDB, as Drizzle tables. Put
 * them in your Drizzle schema (`export * from "@sesame/adapter-drizzle/mysql"`) and drizzle-kit
 * creates them.
 *
 * Same columns, keys and indexes as the SQLite schema of `@sesame/adapter-sqlite`, with the types
 * MySQL needs:
 * - Keys and looked-up columns are `varchar`s with a binary collation: MySQL's default collations
 *   ignore case (and accents), which would make `ABC` and `abc` the same credential id or token.
 *   Credential ids (base64url, up to 1,364 characters for the largest ids WebAuthn allows) are
 *   ASCII, which keeps their index within InnoDB's 3,072-byte limit.
 * - Other text is `text` in the table's character set: create the database with `utf8mb4` (the
 *   default of MySQL 8; not always of MariaDB) to store any name.
 * - Timestamps are `datetime(3)` in UTC (`timestamp` ends in 2038); `expires_at` and the passkey
 *   counter are `bigint` read as numbers.
 *
 * To add columns, build the users table from `mysqlUserColumns()` and pass it to `mysqlTables`,
 * which makes the other tables refer to it; give the adapter the result as `tables`.
 *
 * @module
 */
import { bigint, boolean, customType, datetime, index, int, mysqlTable, primaryKey, text, uniqueIndex, varchar, type MySqlColumn, type MySqlTable } from "drizzle-orm/mysql-core"
import { tableNames, type TableNames } from "./names.js"

/** What the other tables and the adapter need of a users table. */
type UsersTable = MySqlTable & { id: MySqlColumn; email: MySqlColumn }

/** A `varchar` compared byte for byte. */
const key = (name: string, length = 255) =>
  customType<{ data: string; driverData: string }>({ dataType: () => `varchar(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` })(name)
const asciiKey = (name: string, length: number) =>
  customType<{ data: string; driverData: string }>({ dataType: () => `varchar(${length}) CHARACTER SET ascii COLLATE ascii_bin` })(name)
const time = (name: string) => datetime(name, { mode: "date", fsp: 3 })

/** The users table's columns, for a users table with columns of your own. */
export function mysqlUserColumns() {
  return {
    id: key("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    name: text("name"),
    email: key("email").notNull(),
    emailVerified: time("emailVerified"),
    image: text("image"),
  }
}

/** The users table's email index, for a users table with columns of your own. */
export const mysqlUserIndexes = (name: string) => (t: { email: MySqlColumn }) => [uniqueIndex(`${name}_email_key`).on(t.email)]

function usersTable(name: string) {
  return mysqlTable(name, mysqlUserColumns(), mysqlUserIndexes(name))
}

type DefaultUsers = ReturnType<typeof usersTable>

export interface MysqlTablesOptions<U extends UsersTable> {
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  names?: Partial<TableNames>
  /** Your users table, built from `mysqlUserColumns()` plus columns of your own. */
  users?: U
}

/** The ten tables, named as `options` say. */
export function mysqlTables<U extends UsersTable = DefaultUsers>(options: MysqlTablesOptions<U> = {}) {
  const n = tableNames(options.names)
  const users = options.users ?? (usersTable(n.users) as unknown as U)
  const userId = () =>
    key("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" })

  const accounts = mysqlTable(
    n.accounts,
    {
      id: key("id")
        .primaryKey()
        .$defaultFn(() => crypto.randomUUID()),
      userId: userId(),
      type: key("type").notNull(),
      provider: key("provider").notNull(),
      providerAccountId: key("providerAccountId").notNull(),
      refresh_token: text("refresh_token"),
      access_token: text("access_token"),
      expires_at: bigint("expires_at", { mode: "number" }),
      token_type: text("token_type"),
      scope: text("scope"),
      id_token: text("id_token"),
      session_state: text("session_state"),
    },
    (t) => [uniqueIndex(`${n.accounts}_provider_key`).on(t.provider, t.providerAccountId), index(`${n.accounts}_userId_idx`).on(t.userId)],
  )

  const sessions = mysqlTable(
    n.sessions,
    {
      sessionToken: key("sessionToken").primaryKey(),
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

  const verificationTokens = mysqlTable(
    n.verificationTokens,
    {
      identifier: key("identifier").notNull(),
      token: key("token").notNull(),
      expires: time("expires").notNull(),
    },
    (t) => [primaryKey({ columns: [t.identifier, t.token] })],
  )

  const authenticators = mysqlTable(
    n.authenticators,
    {
      credentialID: asciiKey("credentialID", 1400).primaryKey(),
      userId: userId(),
      providerAccountId: key("providerAccountId").notNull(),
      credentialPublicKey: text("credentialPublicKey").notNull(),
      counter: bigint("counter", { mode: "number" }).notNull(),
      credentialDeviceType: key("credentialDeviceType").notNull(),
      credentialBackedUp: boolean("credentialBackedUp").notNull(),
      transports: text("transports"),
      name: text("name"),
      createdAt: time("createdAt"),
    },
    (t) => [index(`${n.authenticators}_userId_idx`).on(t.userId)],
  )

  const passwords = mysqlTable(n.passwords, {
    userId: userId().primaryKey(),
    hash: text("hash").notNull(),
    updatedAt: time("updatedAt").notNull(),
  })

  // `count` before `expires`: see `counters` in `../tables.ts`.
  const counters = mysqlTable(n.counters, {
    key: key("key").primaryKey(),
    count: int("count").notNull(),
    expires: time("expires").notNull(),
  })

  // The secret is a compact JWE of a few hundred characters: unbounded text.
  const twoFactors = mysqlTable(n.twoFactors, {
    userId: userId().primaryKey(),
    method: varchar("method", { length: 255, enum: ["totp", "email"] }).notNull(),
    secret: text("secret"),
    enabledAt: time("enabledAt").notNull(),
    devicesRevokedAt: time("devicesRevokedAt"),
  })

  // The primary key leads with userId, so it also serves the lookups of a user's codes.
  const recoveryCodes = mysqlTable(
    n.recoveryCodes,
    {
      userId: userId(),
      hash: key("hash").notNull(),
    },
    (t) => [primaryKey({ columns: [t.userId, t.hash] })],
  )

  // The keys that sign API tokens: the app's, tied to no user. The private key is a sealed JWK (a
  // compact JWE, about 2.5 KB for an RSA key): unbounded text.
  const signingKeys = mysqlTable(n.signingKeys, {
    id: key("id").primaryKey(),
    algorithm: varchar("algorithm", { length: 255 }).notNull(),
    publicKey: text("publicKey").notNull(),
    privateKey: text("privateKey").notNull(),
    createdAt: time("createdAt").notNull(),
  })

  return { users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys }
}

const defaults = mysqlTables()
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
