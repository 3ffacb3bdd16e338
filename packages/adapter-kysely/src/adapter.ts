/**
 * The adapter's methods, written once for the three dialects over a {@link Runner}. Plain reads and
 * writes are Kysely queries; the partial `UPDATE` that `@sesame/sql-common` writes for every SQL
 * adapter runs as a compiled query in the dialect's syntax. Password hashes, counters, second
 * factors, recovery codes and signing keys are Sesame's built-in models, kept by `store` (on the
 * tables the migrations made for them).
 *
 * Integrity is the schema's: unique keys, and foreign keys that refuse rows for unknown users and
 * cascade a user's deletion to their accounts, sessions, passkeys and rows in the store. What must
 * be atomic is one statement or a transaction:
 *
 * - `useVerificationToken` is one `DELETE … RETURNING` (PostgreSQL, SQLite): of concurrent uses of
 *   one sign-in link, exactly one deletes, and so gets, the token. MySQL has no `RETURNING`: the
 *   use locks the row (`SELECT … FOR UPDATE`) and deletes it in one transaction, so the others,
 *   once it commits, find nothing.
 * - MySQL reads a written row back; a delete that returns its row reads it first and returns it
 *   only when its `DELETE` removed it.
 *
 * @module
 */
import { checkUserListQuery, userListPage, type Adapter, type AdapterAuthenticator, type Store } from "@sesame/core/adapters"
import {
  accountTokenColumns,
  likeContaining,
  likeEscape,
  authenticatorColumns,
  sessionColumns,
  toAccount,
  toAuthenticator,
  toSession,
  toVerificationToken,
  updateSql,
  userTable,
  writeFactors,
  type Row,
  type TableNames,
  type UserTable,
} from "@sesame/sql-common"
import { CompiledQuery, sql } from "kysely"
import { selection, userFieldSelection, type Role } from "./columns.js"
import type { Runner } from "./runner.js"
import { kyselyStore, sqlDialects } from "./store.js"

/** Column values that select one row (a primary or unique key), or a user's rows. */
type Key = Record<string, string>

/**
 * The adapter on `run`. `users` says which of the users table's columns it writes and reads (the
 * app's user fields, `withUserFields`); `store` is the one it keeps when so bound.
 */
export function kyselyAdapter(run: Runner, t: TableNames, users: UserTable = userTable(sqlDialects[run.dialect.name]), store: Store = kyselyStore(run, t)): Adapter {
  const { db, dialect } = run
  const { returning } = dialect.statements
  /** The columns of `role`'s table (see `selection`); the users table's with the declared fields, by their alias in a join (`prefix`). */
  const read = (role: Role, alias?: string, prefix?: string) => {
    const columns = selection(dialect.name, role, alias, prefix)
    return role === "users" ? [...columns, ...userFieldSelection(dialect.name, users.fields, alias, prefix !== undefined)] : columns
  }
  const map = <T>(row: Row | null | undefined, to: (row: Row) => T): T | null => (row ? to(row) : null)

  const find = (role: Role, key: Key) =>
    db
      .selectFrom(t[role])
      .select(read(role))
      .where((eb) => eb.and(key))
  const first = async (role: Role, key: Key): Promise<Row | null> => (await run.rows(find(role, key)))[0] ?? null
  const findAll = async <T>(role: Role, key: Key, to: (row: Row) => T): Promise<T[]> => (await run.rows(find(role, key))).map(to)

  /** Inserts `row`; resolves with the stored row, returned by the `INSERT` or read back by `key`. */
  async function insert(role: Role, row: Record<string, unknown>, key: Key): Promise<Row> {
    const values = Object.fromEntries(Object.entries(row).map(([column, value]) => [column, dialect.param(value)]))
    const query = db.insertInto(t[role]).values(values)
    if (returning) return (await run.rows(query.returning(read(role))))[0]!
    await run.affected(query)
    return (await first(role, key))!
  }

  /** Deletes the row `key` selects; resolves with it, or null when there was none (or another call took it). */
  async function removeOne(role: Role, key: Key): Promise<Row | null> {
    const query = db.deleteFrom(t[role]).where((eb) => eb.and(key))
    if (returning) return (await run.rows(query.returning(read(role))))[0] ?? null
    const row = await first(role, key)
    return row && (await run.affected(query)) > 0 ? row : null
  }

  /**
   * Sets the given `columns` of `values` on the row `key` selects (sql-common's partial `UPDATE`;
   * with none given, sets nothing); resolves with the row after it, or null when there is none.
   */
  async function update(role: Role, columns: readonly string[], values: Record<string, unknown>, key: Key): Promise<Row | null> {
    const statement = updateSql(dialect.statements, t[role], columns, values, Object.keys(key))
    if (!statement) return first(role, key)
    const query = CompiledQuery.raw(statement.sql, [...statement.params, ...Object.values(key)])
    if (returning) return (await run.rows(query))[0] ?? null
    await run.affected(query)
    return first(role, key)
  }

  const adapter: Adapter = {
    async createUser(user) {
      const row = users.insertValues(user)
      return users.toUser(await insert("users", row, { id: row.id as string }))
    },
    getUser: async (id) => map(await first("users", { id }), users.toUser),
    getUserByEmail: async (email) => map(await first("users", { email }), users.toUser),
    async getUserByAccount({ provider, providerAccountId }) {
      const query = db
        .selectFrom(`${t.users} as u`)
        .innerJoin(`${t.accounts} as a`, "a.userId", "u.id")
        .select(read("users", "u"))
        .where("a.provider", "=", provider)
        .where("a.providerAccountId", "=", providerAccountId)
      return map((await run.rows(query))[0], users.toUser)
    },
    async updateUser(user) {
      const row = await update("users", users.updateColumns, users.updateValues(user), { id: user.id })
      if (!row) throw new Error(`No user with id "${user.id}".`)
      return users.toUser(row)
    },
    deleteUser: async (id) => map(await removeOne("users", { id }), users.toUser),

    async linkAccount(account) {
      const { userId, type, provider, providerAccountId } = account
      const tokens = Object.fromEntries(accountTokenColumns.map((column) => [column, account[column]]))
      return toAccount(await insert("accounts", { id: crypto.randomUUID(), userId, type, provider, providerAccountId, ...tokens }, { provider, providerAccountId }))
    },
    unlinkAccount: async ({ provider, providerAccountId }) => map(await removeOne("accounts", { provider, providerAccountId }), toAccount) ?? undefined,
    getAccount: async (providerAccountId, provider) => map(await first("accounts", { provider, providerAccountId }), toAccount),
    async updateAccount(account) {
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      return map(await update("accounts", accountTokenColumns, account, key), toAccount)
    },
    listAccountsByUserId: (userId) => findAll("accounts", { userId }, toAccount),

    async createSession(session) {
      const { sessionToken, userId, expires, createdAt, lastUsedAt, userAgent } = session
      const row = { sessionToken, userId, expires, createdAt, lastUsedAt, userAgent, factors: writeFactors(session.factors) }
      return toSession(await insert("sessions", row, { sessionToken }))
    },
    async getSessionAndUser(sessionToken) {
      const query = db
        .selectFrom(`${t.sessions} as s`)
        .innerJoin(`${t.users} as u`, "u.id", "s.userId")
        .select([...read("sessions", "s"), ...read("users", "u", "u_")])
        .where("s.sessionToken", "=", sessionToken)
      const [row] = await run.rows(query)
      return row ? { session: toSession(row), user: users.toJoinedUser(row) } : null
    },
    async updateSession(session) {
      // A call that sets nothing reads nothing either, as the other adapters do.
      if (sessionColumns.every((column) => session[column] === undefined)) return null
      return map(await update("sessions", sessionColumns, session, { sessionToken: session.sessionToken }), toSession)
    },
    deleteSession: async (sessionToken) => map(await removeOne("sessions", { sessionToken }), toSession),
    listSessionsByUserId: (userId) => findAll("sessions", { userId }, toSession),
    // Session tokens are SHA-256 hashes, never empty, so "" excepts nothing.
    deleteSessionsByUserId: (userId, except) =>
      run.affected(
        db
          .deleteFrom(t.sessions)
          .where("userId", "=", userId)
          .where("sessionToken", "<>", except ?? ""),
      ),
    // Keyset-paged on the unique index of email; a search (`LIKE`, its wildcards escaped) reads on
    // from the cursor, as sql-common's `listUsersSql` does for the other SQL adapters.
    async listUsers(query) {
      const { search, limit, after } = checkUserListQuery(query)
      let select = db.selectFrom(t.users).select(read("users"))
      if (after) select = select.where((eb) => eb.and([eb("email", ">=", after.email), eb.or([eb("email", ">", after.email), eb("id", ">", after.id)])]))
      if (search !== "") {
        const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like lower(${likeContaining(search)}) escape ${sql.lit(likeEscape)}`
        select = select.where((eb) => eb.or([like("email"), like("name")]))
      }
      const rows = await run.rows(select.orderBy("email").orderBy("id").limit(limit + 1))
      return userListPage(rows.map(users.toUser), limit)
    },

    async createVerificationToken({ identifier, token, expires }) {
      return toVerificationToken(await insert("verificationTokens", { identifier, token, expires }, { identifier, token }))
    },
    async useVerificationToken({ identifier, token }) {
      const key = { identifier, token }
      if (returning) return map(await removeOne("verificationTokens", key), toVerificationToken)
      return run.atomically(async (tx) => {
        // The row lock makes concurrent uses wait here; after the first commits they find no row.
        const [row] = await tx.rows(find("verificationTokens", key).forUpdate())
        if (!row) return null
        await tx.affected(db.deleteFrom(t.verificationTokens).where((eb) => eb.and(key)))
        return toVerificationToken(row)
      })
    },

    async createAuthenticator(authenticator: AdapterAuthenticator) {
      const row = Object.fromEntries(authenticatorColumns.map((column) => [column, authenticator[column]]))
      return toAuthenticator(await insert("authenticators", row, { credentialID: authenticator.credentialID }))
    },
    getAuthenticator: async (credentialID) => map(await first("authenticators", { credentialID }), toAuthenticator),
    listAuthenticatorsByUserId: (userId) => findAll("authenticators", { userId }, toAuthenticator),
    async updateAuthenticatorCounter(credentialID, counter) {
      const row = await update("authenticators", ["counter"], { counter }, { credentialID })
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    async updateAuthenticator(credentialID, data) {
      const row = await update("authenticators", ["name"], data, { credentialID })
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    deleteAuthenticator: async (credentialID) => map(await removeOne("authenticators", { credentialID }), toAuthenticator),

    transaction: (fn) => (run.inTransaction ? fn(adapter) : run.atomically((tx) => fn(kyselyAdapter(tx, t, users)))),
    // Inside the adapter's transaction, bound to it as the other methods are.
    store,
    // On the same runner (or transaction), tables and store: only the users' columns differ.
    withUserFields: (model) => kyselyAdapter(run, t, userTable(sqlDialects[dialect.name], model), store),
  }
  return adapter
}
