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
 * An operation that must be atomic is one statement (`useVerificationToken` is a
 * `DELETE … RETURNING`, so of two concurrent uses of one link exactly one gets the token) or runs
 * in a transaction, on one pooled connection between BEGIN and COMMIT (`transaction`). Driver
 * errors reject the method's promise (Sesame reports them as `AdapterError`); a pooled connection
 * that dies while idle is discarded and reported to `onPoolError`, never left as an unhandled
 * `error` event.
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
import type { Pool, PoolClient } from "pg"
import { pgRunner } from "./runner.js"
import { tableNames } from "./schema.js"
import { inTransaction } from "./transaction.js"

export { migrate, type MigrateOptions, type MigrationResult } from "./migrate.js"
export { schema, defaultTableNames, type TableNames } from "./schema.js"

export interface PostgresAdapterOptions {
  /**
   * Table names, when they differ from `sesame_users`, `sesame_accounts`, … (by role: `users`,
   * `sessions`, …), and declared models' tables by model name (`{ signInRecord: "app_sign_ins" }`).
   */
  tables?: TableOverrides
  /**
   * Called when a connection that sits idle in the pool fails (the server restarted, a proxy closed
   * it): the pool has already discarded it and opens a new one when needed. Default: nothing, as
   * nothing is lost (a restart drops every idle connection at once; the requests that need the
   * database meanwhile are what Sesame logs, once per outage), unless the app already listens for
   * the pool's `error` events.
   */
  onPoolError?: (error: Error) => void
}

/** Runs one statement on the pool or on a transaction's connection. */
type Run = (sql: string, params?: unknown[]) => Promise<{ rows: Row[]; rowCount: number | null }>

/** How this adapter writes the partial `UPDATE` of `@sesame/sql-common`. */
const dialect: UpdateDialect = { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true }

const placeholders = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(", ")

/** The generic store on a runner, with the adapter's table names. */
type StoreOn = (runner: SqlRunner) => Store

/** The adapter on `run`; `users` says which of the users table's columns it writes and reads (the app's user fields, `withUserFields`). */
function build(pool: Pool, run: Run, t: TableNames, inTx: boolean, storeOn: StoreOn, store: Store, users: UserTable): Adapter {
  const one = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T | null> => {
    const { rows } = await run(sql, params)
    return rows[0] ? map(rows[0]) : null
  }
  const all = async <T>(map: (row: Row) => T, sql: string, params: unknown[]): Promise<T[]> => (await run(sql, params)).rows.map(map)
  const columnList = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ")

  const adapter: Adapter = {
    store,

    async createUser(user) {
      const row = users.insertValues(user)
      const values = Object.values(row)
      return (await one(users.toUser, `INSERT INTO "${t.users}" (${columnList(Object.keys(row))}) VALUES (${placeholders(values.length)}) RETURNING *`, values))!
    },
    getUser: (id) => one(users.toUser, `SELECT * FROM "${t.users}" WHERE "id" = $1`, [id]),
    getUserByEmail: (email) => one(users.toUser, `SELECT * FROM "${t.users}" WHERE "email" = $1`, [email]),
    getUserByAccount: ({ provider, providerAccountId }) =>
      one(
        users.toUser,
        `SELECT u.* FROM "${t.users}" u JOIN "${t.accounts}" a ON a."userId" = u."id" WHERE a."provider" = $1 AND a."providerAccountId" = $2`,
        [provider, providerAccountId],
      ),
    async updateUser(user) {
      const update = updateSql(dialect, t.users, users.updateColumns, users.updateValues(user), ["id"])
      const found = update
        ? await one(users.toUser, update.sql, [...update.params, user.id])
        : await one(users.toUser, `SELECT * FROM "${t.users}" WHERE "id" = $1`, [user.id])
      if (!found) throw new Error(`No user with id "${user.id}".`)
      return found
    },
    deleteUser: (id) => one(users.toUser, `DELETE FROM "${t.users}" WHERE "id" = $1 RETURNING *`, [id]),

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
        `SELECT s.*, ${users.joinedColumns} FROM "${t.sessions}" s JOIN "${t.users}" u ON u."id" = s."userId" WHERE s."sessionToken" = $1`,
        [sessionToken],
      )
      const row = rows[0]
      return row ? { session: toSession(row), user: users.toJoinedUser(row) } : null
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
    // Keyset-paged on the unique index of email; a search reads on from the cursor (sql-common's `listUsersSql`).
    async listUsers(query) {
      const checked = checkUserListQuery(query)
      const { sql, params } = listUsersSql("pg", t.users, checked)
      return userListPage(await all(users.toUser, sql, params), checked.limit)
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

    async transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      // Nested calls join the transaction already open.
      if (inTx) return fn(adapter)
      return inTransaction(pool, (client: PoolClient) =>
        fn(build(pool, (sql, params) => client.query(sql, params), t, true, storeOn, storeOn(pgRunner(pool, client)), users)),
      )
    },

    // On the same pool (or transaction), tables and store: only the users' columns differ.
    withUserFields: (model) => build(pool, run, t, inTx, storeOn, store, userTable("pg", model)),
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
  else if (pool.listenerCount("error") === 0) pool.on("error", discarded)
  const storeOn: StoreOn = (runner) => sqlStore({ dialect: "pg", runner, tables: tableOverrides(options.tables), usersTable: t.users })
  return build(pool, (sql, params) => pool.query(sql, params), t, false, storeOn, storeOn(pgRunner(pool)), userTable("pg"))
}

/** An idle connection that failed: the pool has discarded it already. */
function discarded(): void {}
