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
 * token. `incrementCounter` is one `INSERT … ON DUPLICATE KEY UPDATE`, which locks the counter's
 * row until its transaction ends, followed by a read of the row in that transaction: concurrent
 * increments each count, and each reads its own result. `useRecoveryCode` is one `DELETE` whose
 * affected-row count says whether it took the code: of concurrent uses, the first locks the row and
 * the others find nothing once it commits. `setRecoveryCodes` and `deleteTwoFactor` each run in a
 * transaction. Driver errors reject the method's promise (Sesame reports them as `AdapterError`).
 *
 * @module
 */
import type { Adapter, AdapterAuthenticator } from "@sesame/core/adapters"
import {
  accountColumns,
  accountTokenColumns,
  authenticatorColumns,
  incrementCounterSql,
  insertRecoveryCodesSql,
  sessionColumns,
  setPasswordSql,
  setTwoFactorSql,
  signingKeyColumns,
  toAccount,
  toAuthenticator,
  toCounter,
  toPassword,
  toPrefixedUser,
  toSession,
  toSigningKey,
  toTwoFactor,
  toUser,
  toVerificationToken,
  updateSql,
  userColumns,
  writeFactors,
  type Row,
  type TableNames,
  type UpsertDialect,
} from "@sesame/sql-common"
import type { Pool } from "mysql2/promise"
import { exec, inTransaction, rows, type Queryable } from "./connection.js"
import { tableNames } from "./schema.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { schema, defaultTableNames, type TableNames } from "./schema.js"

export interface MysqlAdapterOptions {
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  tables?: Partial<TableNames>
}

/** How this adapter writes the partial `UPDATE` and the upserts of `@sesame/sql-common`. */
const dialect: UpsertDialect = { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false, upsert: "on-duplicate-key" }

const columnList = (columns: readonly string[]) => columns.map((c) => `\`${c}\``).join(", ")
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ")

function build(pool: Pool, db: Queryable, t: TableNames, inTx: boolean): Adapter {
  const one = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T | null> => {
    const [row] = await rows(db, sql, params)
    return row ? map(row) : null
  }
  const all = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T[]> => (await rows(db, sql, params)).map(map)
  /** Runs `fn` in a transaction: the one open, or a new one on a connection of its own. */
  const atomically = <T>(fn: (db: Queryable) => Promise<T>): Promise<T> => (inTx ? fn(db) : inTransaction(pool, fn))

  const user = (id: string) => one(toUser, `SELECT * FROM \`${t.users}\` WHERE \`id\` = ?`, [id])
  const account = (provider: string, providerAccountId: string) =>
    one(toAccount, `SELECT * FROM \`${t.accounts}\` WHERE \`provider\` = ? AND \`providerAccountId\` = ?`, [provider, providerAccountId])
  const session = (sessionToken: string) => one(toSession, `SELECT * FROM \`${t.sessions}\` WHERE \`sessionToken\` = ?`, [sessionToken])
  const authenticator = (credentialID: string) => one(toAuthenticator, `SELECT * FROM \`${t.authenticators}\` WHERE \`credentialID\` = ?`, [credentialID])
  const password = (userId: string) => one(toPassword, `SELECT * FROM \`${t.passwords}\` WHERE \`userId\` = ?`, [userId])
  const twoFactor = (userId: string) => one(toTwoFactor, `SELECT * FROM \`${t.twoFactors}\` WHERE \`userId\` = ?`, [userId])

  const adapter: Adapter = {
    async createUser(input) {
      const id = input.id ?? crypto.randomUUID()
      await exec(db, `INSERT INTO \`${t.users}\` (\`id\`, \`name\`, \`email\`, \`emailVerified\`, \`image\`) VALUES (?, ?, ?, ?, ?)`, [
        id,
        input.name ?? null,
        input.email,
        input.emailVerified ?? null,
        input.image ?? null,
      ])
      return (await user(id))!
    },
    getUser: user,
    getUserByEmail: (email) => one(toUser, `SELECT * FROM \`${t.users}\` WHERE \`email\` = ?`, [email]),
    getUserByAccount: ({ provider, providerAccountId }) =>
      one(
        toUser,
        `SELECT u.* FROM \`${t.users}\` u JOIN \`${t.accounts}\` a ON a.\`userId\` = u.\`id\` WHERE a.\`provider\` = ? AND a.\`providerAccountId\` = ?`,
        [provider, providerAccountId],
      ),
    async updateUser(input) {
      const update = updateSql(dialect, t.users, userColumns, input, ["id"])
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
        `SELECT s.*, u.\`id\` AS \`u_id\`, u.\`name\` AS \`u_name\`, u.\`email\` AS \`u_email\`, u.\`emailVerified\` AS \`u_emailVerified\`, u.\`image\` AS \`u_image\`
         FROM \`${t.sessions}\` s JOIN \`${t.users}\` u ON u.\`id\` = s.\`userId\` WHERE s.\`sessionToken\` = ?`,
        [sessionToken],
      )
      return row ? { session: toSession(row), user: toPrefixedUser(row) } : null
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

    getPassword: password,
    async setPassword(input) {
      const upsert = setPasswordSql(dialect, t.passwords, input)
      await exec(db, upsert.sql, upsert.params)
      return (await password(input.userId))!
    },
    async deletePassword(userId) {
      await exec(db, `DELETE FROM \`${t.passwords}\` WHERE \`userId\` = ?`, [userId])
    },

    incrementCounter: (key, expires) =>
      atomically(async (tx) => {
        // The upsert holds the row's lock until commit, so the read sees this increment's count.
        const upsert = incrementCounterSql(dialect, t.counters, key, expires, new Date())
        await exec(tx, upsert.sql, upsert.params)
        const [row] = await rows(tx, `SELECT * FROM \`${t.counters}\` WHERE \`key\` = ?`, [key])
        return toCounter(row!)
      }),
    getCounter: (key) => one(toCounter, `SELECT * FROM \`${t.counters}\` WHERE \`key\` = ? AND \`expires\` > ?`, [key, new Date()]),
    async deleteCounter(key) {
      await exec(db, `DELETE FROM \`${t.counters}\` WHERE \`key\` = ?`, [key])
    },

    getTwoFactor: twoFactor,
    async setTwoFactor(input) {
      const upsert = setTwoFactorSql(dialect, t.twoFactors, input)
      await exec(db, upsert.sql, upsert.params)
      return (await twoFactor(input.userId))!
    },
    deleteTwoFactor: (userId) =>
      atomically(async (tx) => {
        // Together, so that the codes never outlive the factor they back up.
        await exec(tx, `DELETE FROM \`${t.recoveryCodes}\` WHERE \`userId\` = ?`, [userId])
        await exec(tx, `DELETE FROM \`${t.twoFactors}\` WHERE \`userId\` = ?`, [userId])
      }),
    setRecoveryCodes: (userId, hashes) =>
      atomically(async (tx) => {
        // The foreign key refuses codes for an unknown user; an empty set inserts none, so ask.
        const [found] = await rows(tx, `SELECT \`id\` FROM \`${t.users}\` WHERE \`id\` = ?`, [userId])
        if (!found) throw new Error(`No user with id "${userId}".`)
        await exec(tx, `DELETE FROM \`${t.recoveryCodes}\` WHERE \`userId\` = ?`, [userId])
        const insert = insertRecoveryCodesSql(dialect, t.recoveryCodes, userId, hashes)
        if (insert) await exec(tx, insert.sql, insert.params)
      }),
    useRecoveryCode: async (userId, hash) =>
      (await exec(db, `DELETE FROM \`${t.recoveryCodes}\` WHERE \`userId\` = ? AND \`hash\` = ?`, [userId, hash])) === 1,
    async countRecoveryCodes(userId) {
      const [row] = await rows(db, `SELECT COUNT(*) AS \`count\` FROM \`${t.recoveryCodes}\` WHERE \`userId\` = ?`, [userId])
      return Number(row?.count ?? 0)
    },

    listSigningKeys: () => all(toSigningKey, `SELECT * FROM \`${t.signingKeys}\``, []),
    async createSigningKey(key) {
      await exec(db, `INSERT INTO \`${t.signingKeys}\` (${columnList(signingKeyColumns)}) VALUES (${marks(signingKeyColumns.length)})`, signingKeyColumns.map((c) => key[c]))
      return (await one(toSigningKey, `SELECT * FROM \`${t.signingKeys}\` WHERE \`id\` = ?`, [key.id]))!
    },
    async deleteSigningKey(id) {
      await exec(db, `DELETE FROM \`${t.signingKeys}\` WHERE \`id\` = ?`, [id])
    },

    async transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      // Nested calls join the transaction already open.
      if (inTx) return fn(adapter)
      return inTransaction(pool, (connection) => fn(build(pool, connection, t, true)))
    },
  }
  return adapter
}

/**
 * The MySQL/MariaDB adapter, on the app's `mysql2/promise` pool. The schema must exist: run
 * {@link migrate} (or `sesame migrate --adapter mysql`) first.
 */
export default function MysqlAdapter(pool: Pool, options: MysqlAdapterOptions = {}): Adapter {
  return build(pool, pool, tableNames(options.tables), false)
}
