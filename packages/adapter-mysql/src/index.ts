/**
 * `@sesame/adapter-mysql`: Sesame's adapter for MySQL 8 and MariaDB on mysql2. Several app
 * instances that share one database share their users and sessions.
 *
 * ```ts
 * import mysql from "mysql2/promise"
 * import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
 * const pool = mysql.createPool(process.env.DATABASE_URL!)
 * await migrate(pool) // or `npx sesame migrate --adapter mysql --url "$DATABASE_URL"` when deploying
 * const adapter = MysqlAdapter(pool)
 * ```
 *
 * MySQL 8 has no `RETURNING`, so a write is followed by a read of the row it wrote; where the two
 * must be one step, they run in a transaction. `useVerificationToken` locks the token's row
 * (`SELECT … FOR UPDATE`) and deletes it in one transaction: of concurrent uses of one sign-in link,
 * the first holds the lock and the others, once it commits, find no row, so exactly one gets the
 * token. Driver errors reject the method's promise (Sesame reports them as `AdapterError`).
 *
 * `store` is `@sesame/sql-common`'s generic store of declared models, on the same pool (and, in a
 * `transaction`, on its connection); `migrate(pool, { models })` makes their tables. Sesame's own
 * password hashes, counters, second factors, recovery codes and signing keys live there too, on
 * the tables the numbered migrations make.
 *
 * `withUserFields(model)` (the app's `user.fields`) is this adapter writing and reading those
 * fields' columns of the users table too, which `migrate(pool, { models: [model] })` adds.
 *
 * @module
 */
import { checkUserListQuery, userListPage, type Adapter, type AdapterAuthenticator, type Store } from "@sesame/core/adapters"
import {
  accountColumns,
  listUsersSql,
  accountTokenColumns,
  authenticatorColumns,
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
  type TableNames,
  type TableOverrides,
  type UpdateDialect,
  type UserTable,
} from "@sesame/sql-common"
import type { Pool } from "mysql2/promise"
import { exec, inTransaction, rows, type Queryable } from "./connection.js"
import { mysqlRunner } from "./runner.js"
import { tableNames } from "./schema.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { schema, defaultTableNames, type TableNames } from "./schema.js"

export interface MysqlAdapterOptions {
  /**
   * Table names, when they differ from `sesame_users`, `sesame_accounts`, … (by role: `users`,
   * `sessions`, …), and declared models' tables by model name (`{ signInRecord: "app_sign_ins" }`).
   */
  tables?: TableOverrides
}

/** How this adapter writes the partial `UPDATE` of `@sesame/sql-common`. */
const dialect: UpdateDialect = { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false }

const columnList = (columns: readonly string[]) => columns.map((c) => `\`${c}\``).join(", ")
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ")

/** The generic store on a runner, with the adapter's table names. */
type StoreOn = (runner: SqlRunner) => Store

/** The adapter on `db`; `users` says which of the users table's columns it writes and reads (the app's user fields, `withUserFields`). */
function build(pool: Pool, db: Queryable, t: TableNames, inTx: boolean, storeOn: StoreOn, store: Store, users: UserTable): Adapter {
  const one = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T | null> => {
    const [row] = await rows(db, sql, params)
    return row ? map(row) : null
  }
  const all = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T[]> => (await rows(db, sql, params)).map(map)
  /** Runs `fn` in a transaction: the one open, or a new one on a connection of its own. */
  const atomically = <T>(fn: (db: Queryable) => Promise<T>): Promise<T> => (inTx ? fn(db) : inTransaction(pool, fn))

  const user = (id: string) => one(users.toUser, `SELECT * FROM \`${t.users}\` WHERE \`id\` = ?`, [id])
  const account = (provider: string, providerAccountId: string) =>
    one(toAccount, `SELECT * FROM \`${t.accounts}\` WHERE \`provider\` = ? AND \`providerAccountId\` = ?`, [provider, providerAccountId])
  const session = (sessionToken: string) => one(toSession, `SELECT * FROM \`${t.sessions}\` WHERE \`sessionToken\` = ?`, [sessionToken])
  const authenticator = (credentialID: string) => one(toAuthenticator, `SELECT * FROM \`${t.authenticators}\` WHERE \`credentialID\` = ?`, [credentialID])

  const adapter: Adapter = {
    store,

    async createUser(input) {
      const row = users.insertValues(input)
      const values = Object.values(row)
      await exec(db, `INSERT INTO \`${t.users}\` (${columnList(Object.keys(row))}) VALUES (${marks(values.length)})`, values)
      return (await user(row.id as string))!
    },
    getUser: user,
    getUserByEmail: (email) => one(users.toUser, `SELECT * FROM \`${t.users}\` WHERE \`email\` = ?`, [email]),
    getUserByAccount: ({ provider, providerAccountId }) =>
      one(
        users.toUser,
        `SELECT u.* FROM \`${t.users}\` u JOIN \`${t.accounts}\` a ON a.\`userId\` = u.\`id\` WHERE a.\`provider\` = ? AND a.\`providerAccountId\` = ?`,
        [provider, providerAccountId],
      ),
    async updateUser(input) {
      const update = updateSql(dialect, t.users, users.updateColumns, users.updateValues(input), ["id"])
      if (update) await exec(db, update.sql, [...update.params, input.id])
      const found = await user(input.id)
      if (!found) throw new Error(`No user with id "${input.id}".`)
      return found
    },
    async deleteUser(id) {
      const found = await user(id)
      await exec(db, `DELETE FROM \`${t.users}\` WHERE \`id\` = ?`, [id])
      return found
    },

    async linkAccount(input) {
      const values = [crypto.randomUUID(), input.userId, input.type, input.provider, input.providerAccountId, ...accountTokenColumns.map((c) => input[c] ?? null)]
      await exec(db, `INSERT INTO \`${t.accounts}\` (${columnList(accountColumns)}) VALUES (${marks(values.length)})`, values)
      return (await account(input.provider, input.providerAccountId))!
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const found = await account(provider, providerAccountId)
      await exec(db, `DELETE FROM \`${t.accounts}\` WHERE \`provider\` = ? AND \`providerAccountId\` = ?`, [provider, providerAccountId])
      return found ?? undefined
    },
    getAccount: (providerAccountId, provider) => account(provider, providerAccountId),
    async updateAccount(input) {
      const update = updateSql(dialect, t.accounts, accountTokenColumns, input, ["provider", "providerAccountId"])
      if (update) await exec(db, update.sql, [...update.params, input.provider, input.providerAccountId])
      return account(input.provider, input.providerAccountId)
    },
    listAccountsByUserId: (userId) => all(toAccount, `SELECT * FROM \`${t.accounts}\` WHERE \`userId\` = ?`, [userId]),

    async createSession(input) {
      await exec(
        db,
        `INSERT INTO \`${t.sessions}\` (\`sessionToken\`, \`userId\`, \`expires\`, \`createdAt\`, \`lastUsedAt\`, \`userAgent\`, \`factors\`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [input.sessionToken, input.userId, input.expires, input.createdAt ?? null, input.lastUsedAt ?? null, input.userAgent ?? null, writeFactors(input.factors)],
      )
      return (await session(input.sessionToken))!
    },
    async getSessionAndUser(sessionToken) {
      const [row] = await rows(
        db,
        `SELECT s.*, ${users.joinedColumns} FROM \`${t.sessions}\` s JOIN \`${t.users}\` u ON u.\`id\` = s.\`userId\` WHERE s.\`sessionToken\` = ?`,
        [sessionToken],
      )
      return row ? { session: toSession(row), user: users.toJoinedUser(row) } : null
    },
    async updateSession(input) {
      const update = updateSql(dialect, t.sessions, sessionColumns, input, ["sessionToken"])
      if (!update) return null
      await exec(db, update.sql, [...update.params, input.sessionToken])
      return session(input.sessionToken)
    },
    async deleteSession(sessionToken) {
      const found = await session(sessionToken)
      await exec(db, `DELETE FROM \`${t.sessions}\` WHERE \`sessionToken\` = ?`, [sessionToken])
      return found
    },
    listSessionsByUserId: (userId) => all(toSession, `SELECT * FROM \`${t.sessions}\` WHERE \`userId\` = ?`, [userId]),
    deleteSessionsByUserId: (userId, except) => exec(db, `DELETE FROM \`${t.sessions}\` WHERE \`userId\` = ? AND \`sessionToken\` <> ?`, [userId, except ?? ""]),
    // Keyset-paged on the unique index of email (binary order, `utf8mb4_bin`); a search reads on from the cursor (sql-common's `listUsersSql`).
    async listUsers(query) {
      const checked = checkUserListQuery(query)
      const { sql, params } = listUsersSql("mysql", t.users, checked)
      return userListPage(await all(users.toUser, sql, params), checked.limit)
    },

    async createVerificationToken(token) {
      await exec(db, `INSERT INTO \`${t.verificationTokens}\` (\`identifier\`, \`token\`, \`expires\`) VALUES (?, ?, ?)`, [token.identifier, token.token, token.expires])
      return one(toVerificationToken, `SELECT * FROM \`${t.verificationTokens}\` WHERE \`identifier\` = ? AND \`token\` = ?`, [token.identifier, token.token])
    },
    useVerificationToken: ({ identifier, token }) =>
      atomically(async (tx) => {
        // The row lock makes concurrent uses wait here; after the first commits they find no row.
        const [row] = await rows(tx, `SELECT * FROM \`${t.verificationTokens}\` WHERE \`identifier\` = ? AND \`token\` = ? FOR UPDATE`, [identifier, token])
        if (!row) return null
        await exec(tx, `DELETE FROM \`${t.verificationTokens}\` WHERE \`identifier\` = ? AND \`token\` = ?`, [identifier, token])
        return toVerificationToken(row)
      }),

    async createAuthenticator(a: AdapterAuthenticator) {
      const values = [
        a.credentialID,
        a.userId,
        a.providerAccountId,
        a.credentialPublicKey,
        a.counter,
        a.credentialDeviceType,
        a.credentialBackedUp,
        a.transports ?? null,
        a.name ?? null,
        a.createdAt ?? null,
      ]
      await exec(db, `INSERT INTO \`${t.authenticators}\` (${columnList(authenticatorColumns)}) VALUES (${marks(values.length)})`, values)
      return (await authenticator(a.credentialID))!
    },
    getAuthenticator: authenticator,
    listAuthenticatorsByUserId: (userId) => all(toAuthenticator, `SELECT * FROM \`${t.authenticators}\` WHERE \`userId\` = ?`, [userId]),
    async updateAuthenticatorCounter(credentialID, newCounter) {
      await exec(db, `UPDATE \`${t.authenticators}\` SET \`counter\` = ? WHERE \`credentialID\` = ?`, [newCounter, credentialID])
      const found = await authenticator(credentialID)
      if (!found) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return found
    },
    async updateAuthenticator(credentialID, data) {
      if (data.name !== undefined) await exec(db, `UPDATE \`${t.authenticators}\` SET \`name\` = ? WHERE \`credentialID\` = ?`, [data.name, credentialID])
      const found = await authenticator(credentialID)
      if (!found) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return found
    },
    async deleteAuthenticator(credentialID) {
      const found = await authenticator(credentialID)
      await exec(db, `DELETE FROM \`${t.authenticators}\` WHERE \`credentialID\` = ?`, [credentialID])
      return found
    },

    async transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      // Nested calls join the transaction already open.
      if (inTx) return fn(adapter)
      return inTransaction(pool, (connection) => fn(build(pool, connection, t, true, storeOn, storeOn(mysqlRunner(pool, connection)), users)))
    },

    // On the same pool (or transaction), tables and store: only the users' columns differ.
    withUserFields: (model) => build(pool, db, t, inTx, storeOn, store, userTable("mysql", model)),
  }
  return adapter
}

/**
 * The MySQL/MariaDB adapter, on the app's `mysql2/promise` pool. The schema must exist: run
 * {@link migrate} (or `sesame migrate --adapter mysql`) first.
 */
export default function MysqlAdapter(pool: Pool, options: MysqlAdapterOptions = {}): Adapter {
  const t = tableNames(options.tables)
  const storeOn: StoreOn = (runner) => sqlStore({ dialect: "mysql", runner, tables: tableOverrides(options.tables), usersTable: t.users })
  return build(pool, pool, t, false, storeOn, storeOn(mysqlRunner(pool)), userTable("mysql"))
}
