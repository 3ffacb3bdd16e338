/**
 * The adapter's methods, written once over a `Store` (see `store/`). Integrity is the schema's:
 * unique keys, and foreign keys that refuse rows for unknown users and cascade a user's deletion
 * to its accounts, sessions, passkeys and rows in the store. A rule broken by a write comes back
 * as the driver's error, which the method rejects with.
 *
 * `store`, the generic store of declared models, is `@sesame/sql-common`'s SQL store on the
 * session's runner, so in `transaction` it writes in the adapter's transaction. It keeps Sesame's
 * own data too (password hashes, counters, second factors, recovery codes, signing keys: the
 * built-in models), on the tables of the Drizzle schema that the `tables` option names.
 *
 * @module
 */
import { checkUserListQuery, userListPage, type Adapter } from "@sesame/core/adapters"
import { likeContaining, likeEscape, sqlStore, writeFactors } from "@sesame/sql-common"
import { and, asc, eq, getTableColumns, getTableName, gt, gte, ne, or, sql, type Column } from "drizzle-orm"
import { columnValues, toAccount, toAuthenticator, toSession, toVerificationToken } from "./rows.js"
import type { Session } from "./store/session.js"
import type { Row } from "./store/types.js"
import type { SesameTables } from "./tables.js"
import { plainUsers, userFieldRows, type UserRows } from "./user-fields.js"

/** What an update may not change: the keys that address the row, and its owner. */
const fixed = {
  users: ["id"],
  accounts: ["id", "userId", "type", "provider", "providerAccountId"],
  sessions: ["sessionToken", "userId"],
} as const

/**
 * `modelTables`: the store's tables by model name, where they differ from the models' own (see
 * `Opened`); `userRows`: what a user's row holds, the app's declared fields with `withUserFields`.
 */
export function drizzleAdapter(session: Session, t: SesameTables, modelTables: Readonly<Record<string, string>>, userRows: UserRows = plainUsers(t.users)): Adapter {
  const { store } = session
  const { users, accounts, sessions, verificationTokens: tokens, authenticators } = t
  const userKey = (id: string) => eq(users.id, id)
  const accountKey = (provider: string, providerAccountId: string) => and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId))!
  const sessionKey = (sessionToken: string) => eq(sessions.sessionToken, sessionToken)
  const tokenKey = (identifier: string, token: string) => and(eq(tokens.identifier, identifier), eq(tokens.token, token))!
  const authenticatorKey = (credentialID: string) => eq(authenticators.credentialID, credentialID)
  const map = <T>(row: Row | null, to: (row: Row) => T): T | null => (row ? to(row) : null)
  const toUser = userRows.user

  const adapter: Adapter = {
    async createUser(user) {
      const id = user.id ?? crypto.randomUUID()
      return toUser(await store.insert(users, userRows.values({ ...user, id }), userKey(id)))
    },
    getUser: async (id) => map(await store.find(users, userKey(id)), toUser),
    getUserByEmail: async (email) => map(await store.find(users, eq(users.email, email)), toUser),
    async getUserByAccount({ provider, providerAccountId }) {
      const account = await store.find(accounts, accountKey(provider, providerAccountId))
      return account ? map(await store.find(users, userKey(account.userId as string)), toUser) : null
    },
    async updateUser(user) {
      const values = userRows.values(user, fixed.users)
      const row = Object.keys(values).length > 0 ? await store.updateOne(users, values, userKey(user.id)) : await store.find(users, userKey(user.id))
      if (!row) throw new Error(`No user with id "${user.id}".`)
      return toUser(row)
    },
    deleteUser: async (id) => map(await store.removeOne(users, userKey(id)), toUser),

    async linkAccount(account) {
      const key = accountKey(account.provider, account.providerAccountId)
      return toAccount(await store.insert(accounts, columnValues(accounts, { ...account, id: crypto.randomUUID() }), key))
    },
    async unlinkAccount({ provider, providerAccountId }) {
      return map(await store.removeOne(accounts, accountKey(provider, providerAccountId)), toAccount) ?? undefined
    },
    getAccount: async (providerAccountId, provider) => map(await store.find(accounts, accountKey(provider, providerAccountId)), toAccount),
    async updateAccount(account) {
      const key = accountKey(account.provider, account.providerAccountId)
      const values = columnValues(accounts, account, fixed.accounts)
      return map(Object.keys(values).length > 0 ? await store.updateOne(accounts, values, key) : await store.find(accounts, key), toAccount)
    },
    listAccountsByUserId: async (userId) => (await store.findAll(accounts, eq(accounts.userId, userId))).map(toAccount),

    async createSession(session) {
      const values = columnValues(sessions, { ...session, factors: writeFactors(session.factors) })
      return toSession(await store.insert(sessions, values, sessionKey(session.sessionToken)))
    },
    async getSessionAndUser(sessionToken) {
      const session = await store.find(sessions, sessionKey(sessionToken))
      const user = session && (await store.find(users, userKey(session.userId as string)))
      return session && user ? { session: toSession(session), user: toUser(user) } : null
    },
    async updateSession(session) {
      const values = columnValues(sessions, session, fixed.sessions)
      return Object.keys(values).length > 0 ? map(await store.updateOne(sessions, values, sessionKey(session.sessionToken)), toSession) : null
    },
    deleteSession: async (sessionToken) => map(await store.removeOne(sessions, sessionKey(sessionToken)), toSession),
    listSessionsByUserId: async (userId) => (await store.findAll(sessions, eq(sessions.userId, userId))).map(toSession),
    // Session tokens are SHA-256 hashes, never empty, so "" excepts nothing.
    deleteSessionsByUserId: (userId, except) => store.remove(sessions, and(eq(sessions.userId, userId), ne(sessions.sessionToken, except ?? ""))!),
    // Keyset-paged on the unique index of email; a search (`LIKE`, its wildcards escaped) reads on
    // from the cursor, as sql-common's `listUsersSql` does for the other SQL adapters.
    async listUsers(query) {
      const { search, limit, after } = checkUserListQuery(query)
      const like = (column: Column) => sql`lower(${column}) like lower(${likeContaining(search)}) escape ${sql.raw(`'${likeEscape}'`)}`
      // An app's users table need not have a name column (the type asks for id and email only).
      const name = (getTableColumns(users) as Record<string, Column | undefined>).name
      const where = and(
        after ? and(gte(users.email, after.email), or(gt(users.email, after.email), gt(users.id, after.id))) : undefined,
        search !== "" ? or(like(users.email), name ? like(name) : undefined) : undefined,
      )
      const rows = await store.page(users, where, [asc(users.email), asc(users.id)], limit + 1)
      return userListPage(rows.map(toUser), limit)
    },

    async createVerificationToken(token) {
      return toVerificationToken(await store.insert(tokens, columnValues(tokens, token), tokenKey(token.identifier, token.token)))
    },
    // One statement where the dialect can (`DELETE … RETURNING`): of concurrent uses, one gets it.
    useVerificationToken: async ({ identifier, token }) => map(await store.removeOne(tokens, tokenKey(identifier, token)), toVerificationToken),

    async createAuthenticator(authenticator) {
      const key = authenticatorKey(authenticator.credentialID)
      return toAuthenticator(await store.insert(authenticators, columnValues(authenticators, authenticator), key))
    },
    getAuthenticator: async (credentialID) => map(await store.find(authenticators, authenticatorKey(credentialID)), toAuthenticator),
    listAuthenticatorsByUserId: async (userId) => (await store.findAll(authenticators, eq(authenticators.userId, userId))).map(toAuthenticator),
    async updateAuthenticatorCounter(credentialID, counter) {
      const row = await store.updateOne(authenticators, { counter }, authenticatorKey(credentialID))
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    async updateAuthenticator(credentialID, data) {
      const key = authenticatorKey(credentialID)
      const row = data.name === undefined ? await store.find(authenticators, key) : await store.updateOne(authenticators, { name: data.name }, key)
      if (!row) throw new Error(`No authenticator with credential id "${credentialID}".`)
      return toAuthenticator(row)
    },
    deleteAuthenticator: async (credentialID) => map(await store.removeOne(authenticators, authenticatorKey(credentialID)), toAuthenticator),

    transaction: (fn) => session.transaction((tx) => fn(drizzleAdapter(tx, t, modelTables, userRows))),
    store: sqlStore({ dialect: session.dialect, runner: session.runner, tables: modelTables, usersTable: getTableName(users) }),
    // The same session and tables; only what a user's row holds differs.
    withUserFields: (model) => drizzleAdapter(session, t, modelTables, userFieldRows(users, model)),
  }
  return adapter
}
