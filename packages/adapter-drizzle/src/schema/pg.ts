/**
 * `@sesame/adapter-drizzle/pg`: Sesame's tables for PostgreSQL, as Drizzle tables. Put them in your
 * Drizzle schema (`export * from "@sesame/adapter-drizzle/pg"`) and drizzle-kit creates them.
 *
 * Same columns, keys and indexes as the SQLite schema of `@sesame/adapter-sqlite`: foreign keys
 * to the user cascading on delete, unique email, (provider, providerAccountId) and credential id,
 * (identifier, token) as the verification tokens' primary key, and an index on every `userId`.
 * Timestamps are `timestamptz` with millisecond precision (what a `Date` holds); `expires_at` and
 * the passkey counter are `bigint` (seconds past 2038, counters past 2³¹) read as numbers.
 *
 * To add columns, build the users table from `pgUserColumns()` and pass it to `pgTables`, which
 * makes the other tables refer to it; give the adapter the result as `tables`.
 *
 * @module
 */
import { bigint, boolean, index, integer, pgSchema, pgTable, primaryKey, text, timestamp, uniqueIndex, type PgColumn, type PgTable } from "drizzle-orm/pg-core"
import { tableNames, type TableNames } from "./names.js"

/** What the other tables and the adapter need of a users table. */
type UsersTable = PgTable & { id: PgColumn; email: PgColumn }

const time = (name: string) => timestamp(name, { mode: "date", withTimezone: true, precision: 3 })

/** The users table's columns, for a users table with columns of your own. */
export function pgUserColumns() {
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
export const pgUserIndexes = (name: string) => (t: { email: PgColumn }) => [uniqueIndex(`${name}_email_key`).on(t.email)]

function usersTable(table: typeof pgTable, name: string) {
  return table(name, pgUserColumns(), pgUserIndexes(name))
}

type DefaultUsers = ReturnType<typeof usersTable>

export interface PgTablesOptions<U extends UsersTable> {
  /** A PostgreSQL schema (namespace) for the tables; default the connection's search path. */
  schema?: string
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  names?: Partial<TableNames>
  /** Your users table, built from `pgUserColumns()` plus columns of your own. */
  users?: U
}

/** The ten tables, named and placed as `options` say. */
export function pgTables<U extends UsersTable = DefaultUsers>(options: PgTablesOptions<U> = {}) {
  const n = tableNames(options.names)
  const table = (options.schema ? pgSchema(options.schema).table.bind(pgSchema(options.schema)) : pgTable) as typeof pgTable
  const users = options.users ?? (usersTable(table, n.users) as unknown as U)
  const userId = () =>
    text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" })

  const accounts = table(
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
      expires_at: bigint("expires_at", { mode: "number" }),
      token_type: text("token_type"),
      scope: text("scope"),
      id_token: text("id_token"),
      session_state: text("session_state"),
    },
    (t) => [uniqueIndex(`${n.accounts}_provider_key`).on(t.provider, t.providerAccountId), index(`${n.accounts}_userId_idx`).on(t.userId)],
  )

  const sessions = table(
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

  const verificationTokens = table(
    n.verificationTokens,
    {
      identifier: text("identifier").notNull(),
      token: text("token").notNull(),
      expires: time("expires").notNull(),
    },
    (t) => [primaryKey({ columns: [t.identifier, t.token] })],
  )

  const authenticators = table(
    n.authenticators,
    {
      credentialID: text("credentialID").primaryKey(),
      userId: userId(),
      providerAccountId: text("providerAccountId").notNull(),
      credentialPublicKey: text("credentialPublicKey").notNull(),
      counter: bigint("counter", { mode: "number" }).notNull(),
      credentialDeviceType: text("credentialDeviceType").notNull(),
      credentialBackedUp: boolean("credentialBackedUp").notNull(),
      transports: text("transports"),
      name: text("name"),
      createdAt: time("createdAt"),
    },
    (t) => [index(`${n.authenticators}_userId_idx`).on(t.userId)],
  )

  const passwords = table(n.passwords, {
    userId: userId().primaryKey(),
    hash: text("hash").notNull(),
    updatedAt: time("updatedAt").notNull(),
  })

  // `count` before `expires`: see `counters` in `../tables.ts`.
  const counters = table(n.counters, {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    expires: time("expires").notNull(),
  })

  // The secret is a compact JWE of a few hundred characters: unbounded text.
  const twoFactors = table(n.twoFactors, {
    userId: userId().primaryKey(),
    method: text("method", { enum: ["totp", "email"] }).notNull(),
    secret: text("secret"),
    enabledAt: time("enabledAt").notNull(),
    devicesRevokedAt: time("devicesRevokedAt"),
  })

  // The primary key leads with userId, so it also serves the lookups of a user's codes.
  const recoveryCodes = table(
    n.recoveryCodes,
    {
      userId: userId(),
      hash: text("hash").notNull(),
    },
    (t) => [primaryKey({ columns: [t.userId, t.hash] })],
  )

  // The keys that sign API tokens: the app's, tied to no user. The private key is a sealed JWK (a
  // compact JWE, about 2.5 KB for an RSA key): unbounded text.
  const signingKeys = table(n.signingKeys, {
    id: text("id").primaryKey(),
    algorithm: text("algorithm").notNull(),
    publicKey: text("publicKey").notNull(),
    privateKey: text("privateKey").notNull(),
    createdAt: time("createdAt").notNull(),
  })

  return { users, accounts, sessions, verificationTokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys }
}

const defaults = pgTables()
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
