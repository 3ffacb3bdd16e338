/**
 * `@sesame/adapter-pg`: Sesame's adapter for PostgreSQL on node-postgres (`pg`). Several app
 * instances that share one database share their users and sessions: a session started on one is
 * valid on all, and a sign-out on one ends it everywhere.
 *
 * ```ts
 * import pg from "pg"
 * import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * await migrate(pool) // or `npx sesame migrate --adapter pg --url "$DATABASE_URL"` when deploying
 * const adapter = PostgresAdapter(pool)
 * ```
 *
 * Every operation that must be atomic is one statement (`useVerificationToken` is a
 * `DELETE … RETURNING`, so of two concurrent uses of one link exactly one gets the token;
 * `useRecoveryCode` a `DELETE` whose row count says whether it took the code; `incrementCounter` an
 * `INSERT … ON CONFLICT DO UPDATE`, so concurrent increments all count) or runs in a transaction,
 * on one pooled connection between BEGIN and COMMIT (`setRecoveryCodes`, and `transaction`). Driver errors reject the
 * method's promise (Sesame reports them as `AdapterError`); a pooled connection that dies while
 * idle is discarded and reported to `onPoolError`, never left as an unhandled `error` event.
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
import type { Pool, PoolClient } from "pg"
import { tableNames } from "./schema.js"
import { inTransaction } from "./transaction.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { schema, defaultTableNames, type TableNames } from "./schema.js"

export interface PostgresAdapterOptions {
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  tables?: Partial<TableNames>
  /**
   * Called when a connection that sits idle in the pool fails (the server restarted, a proxy closed
   * it): the pool has already discarded it and opens a new one when needed. Default: a one-line
   * warning on `console.warn`, unless the app already listens for the pool's `error` events.
   */
  onPoolError?: (error: Error) => void
}

/** Runs one statement on the pool or on a transaction's connection. */
type Run = (sql: string, params?: unknown[]) => Promise<{ rows: Row[]; rowCount: number | null }>

/** How this adapter writes the partial `UPDATE` and the upserts of `@sesame/sql-common`. */
const dialect: UpsertDialect = { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true, upsert: "on-conflict" }

const placeholders = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(", ")

function build(pool: Pool, run: Run, t: TableNames, inTx: boolean): Adapter {
  const one = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T | null> => {
    const { rows } = await run(sql, params)
    return rows[0] ? map(rows[0]) : null
  }
  const all = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T[]> => (await run(sql, params)).rows.map(map)
  const columnList = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ")
  /** Runs `fn` in a transaction: the one open, or a new one on a connection of its own. */
  const atomically = <T>(fn: (run: Run) => Promise<T>): Promise<T> =>
    inTx ? fn(run) : inTransaction(pool, (client: PoolClient) => fn((sql, params) => client.query(sql, params)))

  const adapter: Adapter = {
    async createUser(user) {
      const row = await one(toUser, `INSERT INTO "${t.users}" ("id", "name", "email", "emailVerified", "image") VALUES ($1, $2, $3, $4, $5) RETURNING *`, [
        user.id ?? crypto.randomUUID(),
        user.name ?? null,
        user.email,
        user.emailVerified ?? null,
        user.image ?? null,
      ])
      return row!
    },
    getUser: (id) => one(toUser, `SELECT * FROM "${t.users}" WHERE "id" = $1`, [id]),
    getUserByEmail: (email) => one(toUser, `SELECT * FROM "${t.users}" WHERE "email" = $1`, [email]),
    getUserByAccount: ({ provider, providerAccountId }) =>
      one(
        toUser,
        `SELECT u.* FROM "${t.users}" u JOIN "${t.accounts}" a ON a."userId" = u."id" WHERE a."provider" = $1 AND a."providerAccountId" = $2`,
        [provider, providerAccountId],
      ),
    async updateUser(user) {
      const update = updateSql(dialect, t.users, userColumns, user, ["id"])
      const found = update
        ? await one(toUser, update.sql, [...update.params, user.id])
        : await one(toUser, `SELECT * FROM "${t.users}" WHERE "id" = $1`, [user.id])
      if (!found) throw new Error(`No user with id "${user.id}".`)
      return found
    },
    deleteUser: (id) => one(toUser, `DELETE FROM "${t.users}" WHERE "id" = $1 RETURNING *`, [id]),

    async linkAccount(account) {
      const values = [crypto.randomUUID(), account.userId, account.type, account.provider, account.providerAccountId, ...accountTokenColumns.map((c) => account[c] ?? null)]
      return (await one(toAccount, `INSERT INTO "${t.accounts}" (${columnList(accountColumns)}) VALUES (${placeholders(values.length)}) RETURNING *`, values))!
    },
    async unlinkAccount({ provider, providerAccountId }) {
      return (await one(toAccount, `DELETE FROM "${t.accounts}" WHERE "provider" = $1 AND "providerAccountId" = $2 RETURNING *`, [provider, providerAccountId])) ?? undefined
    },
    getAccount: (providerAccountId, provider) =>
      one(toAccount, `SELECT * FROM "${t.accounts}" WHERE "provider" = $1 AND "providerAccountId" = $2`, [provider, providerAccountId]),
    async updateAccount(account) {
      const update = updateSql(dialect, t.accounts, accountTokenColumns, account, ["provider", "providerAccountId"])
      return update
        ? one(toAccount, update.sql, [...update.params, account.provider, account.providerAccountId])
        : one(toAccount, `SELECT * FROM "${t.accounts}" WHERE "provider" = $1 AND "providerAccountId" = $2`, [account.provider, account.providerAccountId])
    },
    listAccountsByUserId: (userId) => all(toAccount, `SELECT * FROM "${t.accounts}" WHERE "userId" = $1`, [userId]),

    async createSession(session) {
      const row = await one(
        toSession,
        `INSERT INTO "${t.sessions}" ("sessionToken", "userId", "expires", "createdAt", "lastUsedAt", "userAgent", "factors") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [session.sessionToken, session.userId, session.expires, session.createdAt ?? null, session.lastUsedAt ?? null, session.userAgent ?? null, writeFactors(session.factors)],
      )
      return row!
    },
    async getSessionAndUser(sessionToken) {
      const { rows } = await run(
        `SELECT s.*, u."id" AS "u_id", u."name" AS "u_name", u."email" AS "u_email", u."emailVerified" AS "u_emailVerified", u."image" AS "u_image"
         FROM "${t.sessions}" s JOIN "${t.users}" u ON u."id" = s."userId" WHERE s."sessionToken" = $1`,
        [sessionToken],
      )
      const row = rows[0]
      return row ? { session: toSession(row), user: toPrefixedUser(row) } : null
    },
    async updateSession(session) {
      const update = updateSql(dialect, t.sessions, sessionColumns, session, ["sessionToken"])
      return update ? one(toSession, update.sql, [...update.params, session.sessionToken]) : null
    },
    deleteSession: (sessionToken) => one(toSession, `DELETE FROM "${t.sessions}" WHERE "sessionToken" = $1 RETURNING *`, [sessionToken]),
    listSessionsByUserId: (userId) => all(toSession, `SELECT * FROM "${t.sessions}" WHERE "userId" = $1`, [userId]),
    async deleteSessionsByUserId(userId, except) {
      const { rowCount } = await run(`DELETE FROM "${t.sessions}" WHERE "userId" = $1 AND "sessionToken" <> $2`, [userId, except ?? ""])
      return rowCount ?? 0
    },

    async createVerificationToken(token) {
      return one(toVerificationToken, `INSERT INTO "${t.verificationTokens}" ("identifier", "token", "expires") VALUES ($1, $2, $3) RETURNING *`, [
        token.identifier,
        token.token,
        token.expires,
      ])
    },
    // One statement: of concurrent uses, the first DELETE takes the row lock and the others, once it
    // commits, find nothing to delete, so exactly one of them gets the token.
    useVerificationToken: ({ identifier, token }) =>
      one(toVerificationToken, `DELETE FROM "${t.verificationTokens}" WHERE "identifier" = $1 AND "token" = $2 RETURNING *`, [identifier, token]),

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
      return (await one(toAuthenticator, `INSERT INTO "${t.authenticators}" (${columnList(authenticatorColumns)}) VALUES (${placeholders(values.length)}) RETURNING *`, values))!
    },
    getAuthenticator: (credentialID) => one(toAuthenticator, `SELECT * FROM "${t.authenticators}" WHERE "credentialID" = $1`, [credentialID]),
    listAuthenticatorsByUserId: (userId) => all(toAuthenticator, `SELECT * FROM "${t.authenticators}" WHERE "userId" = $1`, [userId]),
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const found = await one(toAuthenticator, `UPDATE "${t.authenticators}" SET "counter" = $1 WHERE "credentialID" = $2 RETURNING *`, [newCounter, credentialID])
      if (!found) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return found
    },
    async updateAuthenticator(credentialID, data) {
      const found =
        data.name === undefined
          ? await one(toAuthenticator, `SELECT * FROM "${t.authenticators}" WHERE "credentialID" = $1`, [credentialID])
          : await one(toAuthenticator, `UPDATE "${t.authenticators}" SET "name" = $1 WHERE "credentialID" = $2 RETURNING *`, [data.name, credentialID])
      if (!found) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return found
    },
    deleteAuthenticator: (credentialID) => one(toAuthenticator, `DELETE FROM "${t.authenticators}" WHERE "credentialID" = $1 RETURNING *`, [credentialID]),

    getPassword: (userId) => one(toPassword, `SELECT * FROM "${t.passwords}" WHERE "userId" = $1`, [userId]),
    async setPassword(password) {
      const upsert = setPasswordSql(dialect, t.passwords, password)
      return (await one(toPassword, upsert.sql, upsert.params))!
    },
    async deletePassword(userId) {
      await run(`DELETE FROM "${t.passwords}" WHERE "userId" = $1`, [userId])
    },

    async incrementCounter(key, expires) {
      const upsert = incrementCounterSql(dialect, t.counters, key, expires, new Date())
      return (await one(toCounter, upsert.sql, upsert.params))!
    },
    getCounter: (key) => one(toCounter, `SELECT * FROM "${t.counters}" WHERE "key" = $1 AND "expires" > $2`, [key, new Date()]),
    async deleteCounter(key) {
      await run(`DELETE FROM "${t.counters}" WHERE "key" = $1`, [key])
    },

    getTwoFactor: (userId) => one(toTwoFactor, `SELECT * FROM "${t.twoFactors}" WHERE "userId" = $1`, [userId]),
    async setTwoFactor(twoFactor) {
      const upsert = setTwoFactorSql(dialect, t.twoFactors, twoFactor)
      return (await one(toTwoFactor, upsert.sql, upsert.params))!
    },
    async deleteTwoFactor(userId) {
      // One statement, so that the codes never outlive the factor they back up.
      await run(`WITH "codes" AS (DELETE FROM "${t.recoveryCodes}" WHERE "userId" = $1) DELETE FROM "${t.twoFactors}" WHERE "userId" = $1`, [userId])
    },
    setRecoveryCodes: (userId, hashes) =>
      atomically(async (tx) => {
        // The foreign key refuses codes for an unknown user; an empty set inserts none, so ask.
        const { rows } = await tx(`SELECT "id" FROM "${t.users}" WHERE "id" = $1`, [userId])
        if (rows.length === 0) throw new Error(`No user with id "${userId}".`)
        await tx(`DELETE FROM "${t.recoveryCodes}" WHERE "userId" = $1`, [userId])
        const insert = insertRecoveryCodesSql(dialect, t.recoveryCodes, userId, hashes)
        if (insert) await tx(insert.sql, insert.params)
      }),
    // Of concurrent deletes of one row, the first takes its lock and the others, once it commits,
    // find nothing: exactly one sees a row count of 1.
    async useRecoveryCode(userId, hash) {
      const { rowCount } = await run(`DELETE FROM "${t.recoveryCodes}" WHERE "userId" = $1 AND "hash" = $2`, [userId, hash])
      return rowCount === 1
    },
    async countRecoveryCodes(userId) {
      const { rows } = await run(`SELECT COUNT(*)::int AS "count" FROM "${t.recoveryCodes}" WHERE "userId" = $1`, [userId])
      return Number(rows[0]?.count ?? 0)
    },

    listSigningKeys: () => all(toSigningKey, `SELECT * FROM "${t.signingKeys}"`, []),
    async createSigningKey(key) {
      const values = signingKeyColumns.map((c) => key[c])
      return (await one(toSigningKey, `INSERT INTO "${t.signingKeys}" (${columnList(signingKeyColumns)}) VALUES (${placeholders(values.length)}) RETURNING *`, values))!
    },
    async deleteSigningKey(id) {
      await run(`DELETE FROM "${t.signingKeys}" WHERE "id" = $1`, [id])
    },

    async transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      // Nested calls join the transaction already open.
      if (inTx) return fn(adapter)
      return inTransaction(pool, (client: PoolClient) => fn(build(pool, (sql, params) => client.query(sql, params), t, true)))
    },
  }
  return adapter
}

/**
 * The PostgreSQL adapter, on the app's `pg.Pool`. The schema must exist: run {@link migrate} (or
 * `sesame migrate --adapter pg`) first.
 */
export default function PostgresAdapter(pool: Pool, options: PostgresAdapterOptions = {}): Adapter {
  const t = tableNames(options.tables)
  // Without a listener, an idle connection that drops makes the pool emit an unhandled `error`,
  // which ends the process. A pool the app already listens on is left to the app.
  if (options.onPoolError) pool.on("error", options.onPoolError)
  else if (pool.listenerCount("error") === 0) pool.on("error", warnPoolError)
  return build(pool, (sql, params) => pool.query(sql, params), t, false)
}

function warnPoolError(error: Error): void {
  console.warn(`[sesame] adapter-pg: an idle database connection failed and was discarded: ${error.message}`)
}
