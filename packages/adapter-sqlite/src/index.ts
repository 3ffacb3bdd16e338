/**
 * `@sesame/adapter-sqlite`: Sesame's adapter for SQLite on better-sqlite3, the embedded default.
 *
 * ```ts
 * import SqliteAdapter from "@sesame/adapter-sqlite"
 * const adapter = SqliteAdapter("./data/auth.db") // or a better-sqlite3 Database, or ":memory:"
 * ```
 *
 * The schema is created (or upgraded) when the adapter is made; `migrate` does the same on its own
 * and `schema` prints the SQL. Foreign keys are switched on for the connection, and file databases
 * use WAL journaling so that readers do not block the writer.
 *
 * `store` is `@sesame/sql-common`'s generic store of declared models, on the same connection and
 * behind the same gate (in a `transaction`, inside it); `await migrate(db, { models })` makes
 * their tables. Sesame's own password hashes, counters, second factors, recovery codes and signing
 * keys live there too, on the tables the numbered migrations make.
 *
 * `withUserFields(model)` (the app's `user.fields`) is this adapter writing and reading those
 * fields' columns of the users table too, which `await migrate(db, { models: [model] })` adds.
 *
 * Session tokens arrive already hashed (Sesame stores only the SHA-256 of the cookie's token), so
 * the primary-key lookup on `sessionToken` compares hashes: what an index lookup might leak through
 * timing is a prefix of a hash, which tells nothing about a token.
 *
 * @module
 */
import { checkUserListQuery, userListPage, type Adapter, type AdapterAuthenticator, type Store } from "@sesame/core/adapters"
import type Database from "better-sqlite3"
import { migrate, openDatabase, type MigrateOptions } from "./migrate.js"
import {
  accountTokenColumns,
  listUsersSql,
  sessionColumns,
  sqlStore,
  tableOverrides,
  toAccount,
  toAuthenticator,
  toSession,
  toVerificationToken,
  updateSql,
  userTable,
  writeFactors,
  type Row,
  type SqlRunner,
  type UpdateDialect,
  type UserTable,
  Gate,
} from "@sesame/sql-common"
import { immediateTransaction, sqliteRunner } from "./runner.js"
import { tableNames, type TableNames } from "./schema.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { schema, defaultTableNames, type TableNames } from "./schema.js"

/**
 * `tables` renames the adapter's tables by role (`users`, `sessions`, …) and declared models'
 * tables by model name. Declared models are migrated by `migrate(db, { models })`, not here.
 */
export interface SqliteAdapterOptions extends Omit<MigrateOptions, "models"> {
  /** Create or upgrade the schema when the adapter is made. Default true. */
  migrate?: boolean
}

/** Dates are stored as milliseconds since the epoch. */
const fromDate = (value: Date | null | undefined): number | null => (value ? value.getTime() : null)

function statements(db: Database.Database, t: TableNames) {
  const p = (sql: string) => db.prepare(sql)
  return {
    userById: p(`SELECT * FROM "${t.users}" WHERE "id" = ?`),
    userByEmail: p(`SELECT * FROM "${t.users}" WHERE "email" = ?`),
    userByAccount: p(
      `SELECT u.* FROM "${t.users}" u JOIN "${t.accounts}" a ON a."userId" = u."id" WHERE a."provider" = ? AND a."providerAccountId" = ?`,
    ),
    deleteUser: p(`DELETE FROM "${t.users}" WHERE "id" = ? RETURNING *`),
    insertAccount: p(
      `INSERT INTO "${t.accounts}" ("id", "userId", "type", "provider", "providerAccountId", ${accountTokenColumns.map((c) => `"${c}"`).join(", ")}) VALUES (?, ?, ?, ?, ?, ${accountTokenColumns.map(() => "?").join(", ")}) RETURNING *`,
    ),
    deleteAccount: p(`DELETE FROM "${t.accounts}" WHERE "provider" = ? AND "providerAccountId" = ? RETURNING *`),
    account: p(`SELECT * FROM "${t.accounts}" WHERE "provider" = ? AND "providerAccountId" = ?`),
    accountsByUser: p(`SELECT * FROM "${t.accounts}" WHERE "userId" = ?`),
    insertSession: p(
      `INSERT INTO "${t.sessions}" ("sessionToken", "userId", "expires", "createdAt", "lastUsedAt", "userAgent", "factors") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    deleteSession: p(`DELETE FROM "${t.sessions}" WHERE "sessionToken" = ? RETURNING *`),
    sessionsByUser: p(`SELECT * FROM "${t.sessions}" WHERE "userId" = ?`),
    deleteSessionsByUser: p(`DELETE FROM "${t.sessions}" WHERE "userId" = ? AND "sessionToken" <> ?`),
    insertToken: p(`INSERT INTO "${t.verificationTokens}" ("identifier", "token", "expires") VALUES (?, ?, ?) RETURNING *`),
    useToken: p(`DELETE FROM "${t.verificationTokens}" WHERE "identifier" = ? AND "token" = ? RETURNING *`),
    insertAuthenticator: p(
      `INSERT INTO "${t.authenticators}" ("credentialID", "userId", "providerAccountId", "credentialPublicKey", "counter", "credentialDeviceType", "credentialBackedUp", "transports", "name", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    authenticator: p(`SELECT * FROM "${t.authenticators}" WHERE "credentialID" = ?`),
    authenticatorsByUser: p(`SELECT * FROM "${t.authenticators}" WHERE "userId" = ?`),
    updateCounter: p(`UPDATE "${t.authenticators}" SET "counter" = ? WHERE "credentialID" = ? RETURNING *`),
    renameAuthenticator: p(`UPDATE "${t.authenticators}" SET "name" = ? WHERE "credentialID" = ? RETURNING *`),
    deleteAuthenticator: p(`DELETE FROM "${t.authenticators}" WHERE "credentialID" = ? RETURNING *`),
  }
}

type Statements = ReturnType<typeof statements>

/**
 * The users table with the statements that name its columns, which differ with the app's user
 * fields: the join of `getSessionAndUser`, and `createUser`'s `INSERT` of the declared columns a
 * user gives (the others are left to their defaults). Each is prepared at its first use, since the
 * adapter may be bound before `migrate` adds the declared columns, and then kept.
 */
function userStatements(db: Database.Database, t: TableNames, users: UserTable) {
  const cache = new Map<string, Database.Statement>()
  const prepared = (sql: string): Database.Statement => {
    const statement = cache.get(sql) ?? db.prepare(sql)
    cache.set(sql, statement)
    return statement
  }
  return {
    users,
    sessionAndUser: () => prepared(`SELECT s.*, ${users.joinedColumns} FROM "${t.sessions}" s JOIN "${t.users}" u ON u."id" = s."userId" WHERE s."sessionToken" = ?`),
    /** The `INSERT` of a row with these `columns` (`UserTable.insertValues`'s). */
    insertUser(columns: readonly string[]): Database.Statement {
      return prepared(`INSERT INTO "${t.users}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING *`)
    },
  }
}

type UserStatements = ReturnType<typeof userStatements>

/** How this adapter writes the partial `UPDATE` of `@sesame/sql-common`. */
const dialect: UpdateDialect = {
  quote: (name) => `"${name}"`,
  placeholder: () => "?",
  returning: true,
  toParameter: (value) => (value instanceof Date ? value.getTime() : value),
}

/** The generic store on a runner, with the adapter's table names. */
type StoreOn = (runner: SqlRunner) => Store

/** The adapter on `db`; `u` holds which of the users table's columns it writes and reads (the app's user fields, `withUserFields`). */
function build(db: Database.Database, q: Statements, t: TableNames, gate: Gate, inTransaction: boolean, storeOn: StoreOn, store: Store, u: UserStatements): Adapter {
  const { users } = u
  // Outside a transaction, wait for any open one to end; inside, run at once.
  const ready = inTransaction ? async () => {} : () => gate.idle()
  const get = (statement: Database.Statement, ...params: unknown[]) => (statement.get(...params) as Row | undefined) ?? null
  /** The row a statement returns, mapped, or null. */
  const one = <T>(statement: Database.Statement, map: (row: Row) => T, ...params: unknown[]): T | null => {
    const row = get(statement, ...params)
    return row && map(row)
  }
  const all = <T>(statement: Database.Statement, map: (row: Row) => T, ...params: unknown[]): T[] => (statement.all(...params) as Row[]).map(map)

  const adapter: Adapter = {
    store,

    async createUser(user) {
      await ready()
      const row = users.insertValues(user)
      row.emailVerified = fromDate(row.emailVerified as Date | null)
      return users.toUser(get(u.insertUser(Object.keys(row)), ...Object.values(row))!)
    },
    async getUser(id) {
      await ready()
      return one(q.userById, users.toUser, id)
    },
    async getUserByEmail(email) {
      await ready()
      return one(q.userByEmail, users.toUser, email)
    },
    async getUserByAccount({ provider, providerAccountId }) {
      await ready()
      return one(q.userByAccount, users.toUser, provider, providerAccountId)
    },
    async updateUser(user) {
      await ready()
      const update = updateSql(dialect, t.users, users.updateColumns, users.updateValues(user), ["id"])
      const row = update ? get(db.prepare(update.sql), ...update.params, user.id) : get(q.userById, user.id)
      if (!row) throw new Error(`No user with id "${user.id}".`)
      return users.toUser(row)
    },
    async deleteUser(id) {
      await ready()
      return one(q.deleteUser, users.toUser, id)
    },

    async linkAccount(account) {
      await ready()
      const row = get(
        q.insertAccount,
        crypto.randomUUID(),
        account.userId,
        account.type,
        account.provider,
        account.providerAccountId,
        ...accountTokenColumns.map((c) => (account[c] as string | number | undefined) ?? null),
      )
      return toAccount(row!)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      await ready()
      const row = get(q.deleteAccount, provider, providerAccountId)
      return row ? toAccount(row) : undefined
    },
    async getAccount(providerAccountId, provider) {
      await ready()
      return one(q.account, toAccount, provider, providerAccountId)
    },
    async updateAccount(account) {
      await ready()
      const update = updateSql(dialect, t.accounts, accountTokenColumns, account, ["provider", "providerAccountId"])
      const row = update
        ? get(db.prepare(update.sql), ...update.params, account.provider, account.providerAccountId)
        : get(q.account, account.provider, account.providerAccountId)
      return row && toAccount(row)
    },
    async listAccountsByUserId(userId) {
      await ready()
      return all(q.accountsByUser, toAccount, userId)
    },

    async createSession(session) {
      await ready()
      return toSession(
        get(
          q.insertSession,
          session.sessionToken,
          session.userId,
          fromDate(session.expires),
          fromDate(session.createdAt),
          fromDate(session.lastUsedAt),
          session.userAgent ?? null,
          writeFactors(session.factors),
        )!,
      )
    },
    async getSessionAndUser(sessionToken) {
      await ready()
      const row = get(u.sessionAndUser(), sessionToken)
      if (!row) return null
      return { session: toSession(row), user: users.toJoinedUser(row) }
    },
    async updateSession(session) {
      await ready()
      const update = updateSql(dialect, t.sessions, sessionColumns, session, ["sessionToken"])
      const row = update ? get(db.prepare(update.sql), ...update.params, session.sessionToken) : null
      return row && toSession(row)
    },
    async deleteSession(sessionToken) {
      await ready()
      return one(q.deleteSession, toSession, sessionToken)
    },
    async listSessionsByUserId(userId) {
      await ready()
      return all(q.sessionsByUser, toSession, userId)
    },
    async deleteSessionsByUserId(userId, except) {
      await ready()
      return q.deleteSessionsByUser.run(userId, except ?? "").changes
    },
    // Keyset-paged on the unique index of email; a search reads on from the cursor, and `LOWER`
    // folds ASCII only (sql-common's `listUsersSql`).
    async listUsers(query) {
      const checked = checkUserListQuery(query)
      await ready()
      const { sql, params } = listUsersSql("sqlite", t.users, checked)
      return userListPage(all(db.prepare(sql), users.toUser, ...params), checked.limit)
    },

    async createVerificationToken(token) {
      await ready()
      return toVerificationToken(get(q.insertToken, token.identifier, token.token, fromDate(token.expires))!)
    },
    async useVerificationToken({ identifier, token }) {
      await ready()
      // One statement: of two concurrent uses, exactly one deletes (and gets) the row.
      return one(q.useToken, toVerificationToken, identifier, token)
    },

    async createAuthenticator(a: AdapterAuthenticator) {
      await ready()
      const row = get(
        q.insertAuthenticator,
        a.credentialID,
        a.userId,
        a.providerAccountId,
        a.credentialPublicKey,
        a.counter,
        a.credentialDeviceType,
        a.credentialBackedUp ? 1 : 0,
        a.transports ?? null,
        a.name ?? null,
        fromDate(a.createdAt),
      )
      return toAuthenticator(row!)
    },
    async getAuthenticator(credentialID) {
      await ready()
      return one(q.authenticator, toAuthenticator, credentialID)
    },
    async listAuthenticatorsByUserId(userId) {
      await ready()
      return all(q.authenticatorsByUser, toAuthenticator, userId)
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      await ready()
      const row = get(q.updateCounter, newCounter, credentialID)
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    async updateAuthenticator(credentialID, data) {
      await ready()
      const row = data.name === undefined ? get(q.authenticator, credentialID) : get(q.renameAuthenticator, data.name, credentialID)
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    async deleteAuthenticator(credentialID) {
      await ready()
      return one(q.deleteAuthenticator, toAuthenticator, credentialID)
    },

    async transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      if (inTransaction) return fn(adapter)
      return gate.exclusive(() => immediateTransaction(db, () => fn(build(db, q, t, gate, true, storeOn, storeOn(sqliteRunner(db)), u))))
    },

    // On the same connection (or transaction), gate, tables and store: only the users' columns differ.
    withUserFields: (model) => build(db, q, t, gate, inTransaction, storeOn, store, userStatements(db, t, userTable("sqlite", model))),
  }
  return adapter
}

/**
 * The SQLite adapter. `database` is a better-sqlite3 `Database`, a file path, or `":memory:"`.
 * The schema is migrated unless `options.migrate` is false.
 */
export default function SqliteAdapter(database: Database.Database | string, options: SqliteAdapterOptions = {}): Adapter {
  const db = openDatabase(database)
  db.pragma("foreign_keys = ON")
  if (!db.memory) db.pragma("journal_mode = WAL")
  // Only the numbered migrations: those of declared models are asynchronous (`migrate(db, { models })`).
  if (options.migrate !== false) migrate(db, { tables: options.tables, migrationsTable: options.migrationsTable })
  const t = tableNames(options.tables)
  const storeOn: StoreOn = (runner) => sqlStore({ dialect: "sqlite", runner, tables: tableOverrides(options.tables), usersTable: t.users })
  const gate = new Gate()
  return build(db, statements(db, t), t, gate, false, storeOn, storeOn(sqliteRunner(db, gate)), userStatements(db, t, userTable("sqlite")))
}

