/**
 * The adapter's methods, written once over a `Store` (see `store/`). Integrity is the schema's:
 * unique keys, and foreign keys that refuse rows for unknown users and cascade a user's deletion
 * to its accounts, sessions, passkeys, password, second factor and recovery codes. A counter's
 * increment is one upsert whose new count is a `CASE` on the stored row, so concurrent increments
 * each count; a recovery code is used by one `DELETE`, which only one of concurrent uses sees
 * remove the row. A rule broken by a
 * write comes back as the driver's error, which the method rejects with.
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { writeFactors } from "@sesame/sql-common"
import { and, eq, gt, lte, ne, sql } from "drizzle-orm"
import { columnValues, toAccount, toAuthenticator, toCounter, toPassword, toSession, toSigningKey, toTwoFactor, toUser, toVerificationToken } from "./rows.js"
import type { Row, Store } from "./store/types.js"
import type { SesameTables } from "./tables.js"

/** What an update may not change: the keys that address the row, and its owner. */
const fixed = {
  users: ["id"],
  accounts: ["id", "userId", "type", "provider", "providerAccountId"],
  sessions: ["sessionToken", "userId"],
} as const

export function drizzleAdapter(store: Store, t: SesameTables): Adapter {
  const { users, accounts, sessions, verificationTokens: tokens, authenticators, passwords, counters, twoFactors, recoveryCodes, signingKeys } = t
  const userKey = (id: string) => eq(users.id, id)
  const accountKey = (provider: string, providerAccountId: string) => and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId))!
  const sessionKey = (sessionToken: string) => eq(sessions.sessionToken, sessionToken)
  const tokenKey = (identifier: string, token: string) => and(eq(tokens.identifier, identifier), eq(tokens.token, token))!
  const authenticatorKey = (credentialID: string) => eq(authenticators.credentialID, credentialID)
  const passwordKey = (userId: string) => eq(passwords.userId, userId)
  const counterKey = (key: string) => eq(counters.key, key)
  const twoFactorKey = (userId: string) => eq(twoFactors.userId, userId)
  const codesOf = (userId: string) => eq(recoveryCodes.userId, userId)
  const signingKeyKey = (id: string) => eq(signingKeys.id, id)
  const map = <T>(row: Row | null, to: (row: Row) => T): T | null => (row ? to(row) : null)

  const adapter: Adapter = {
    async createUser(user) {
      const id = user.id ?? crypto.randomUUID()
      return toUser(await store.insert(users, columnValues(users, { ...user, id }), userKey(id)))
    },
    getUser: async (id) => map(await store.find(users, userKey(id)), toUser),
    getUserByEmail: async (email) => map(await store.find(users, eq(users.email, email)), toUser),
    async getUserByAccount({ provider, providerAccountId }) {
      const account = await store.find(accounts, accountKey(provider, providerAccountId))
      return account ? map(await store.find(users, userKey(account.userId as string)), toUser) : null
    },
    async updateUser(user) {
      const values = columnValues(users, user, fixed.users)
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

    getPassword: async (userId) => map(await store.find(passwords, passwordKey(userId)), toPassword),
    async setPassword(password) {
      const values = columnValues(passwords, password)
      const { userId: _key, ...replaced } = values
      return toPassword(await store.upsert(passwords, values, passwords.userId, replaced, passwordKey(password.userId)))
    },
    async deletePassword(userId) {
      await store.remove(passwords, passwordKey(userId))
    },

    async incrementCounter(key, expires) {
      // Decided on the stored row: a counter that expired by now starts again at 1.
      const count = sql`CASE WHEN ${lte(counters.expires, new Date())} THEN 1 ELSE ${counters.count} + 1 END`
      return toCounter(await store.upsert(counters, { key, count: 1, expires }, counters.key, { count, expires }, counterKey(key)))
    },
    getCounter: async (key) => map(await store.find(counters, and(counterKey(key), gt(counters.expires, new Date()))!), toCounter),
    async deleteCounter(key) {
      await store.remove(counters, counterKey(key))
    },

    getTwoFactor: async (userId) => map(await store.find(twoFactors, twoFactorKey(userId)), toTwoFactor),
    async setTwoFactor(twoFactor) {
      // Every field is replaced, nulls included: a factor switched to email loses its secret.
      const values = columnValues(twoFactors, twoFactor)
      const { userId: _key, ...replaced } = values
      return toTwoFactor(await store.upsert(twoFactors, values, twoFactors.userId, replaced, twoFactorKey(twoFactor.userId)))
    },
    deleteTwoFactor: (userId) =>
      store.transaction(async (tx) => {
        // Together, so that the codes never outlive the factor they back up.
        await tx.remove(recoveryCodes, codesOf(userId))
        await tx.remove(twoFactors, twoFactorKey(userId))
      }),
    setRecoveryCodes: (userId, hashes) =>
      store.transaction(async (tx) => {
        // The foreign key refuses codes for an unknown user; an empty set inserts none, so ask.
        if (!(await tx.find(users, userKey(userId)))) throw new Error(`No user with id "${userId}".`)
        await tx.remove(recoveryCodes, codesOf(userId))
        // A set: the primary key (userId, hash) would refuse a hash listed twice.
        const distinct = [...new Set(hashes)]
        if (distinct.length > 0) await tx.insertMany(recoveryCodes, distinct.map((hash) => ({ userId, hash })))
      }),
    useRecoveryCode: async (userId, hash) => (await store.remove(recoveryCodes, and(codesOf(userId), eq(recoveryCodes.hash, hash))!)) === 1,
    countRecoveryCodes: (userId) => store.count(recoveryCodes, codesOf(userId)),

    listSigningKeys: async () => (await store.findAll(signingKeys)).map(toSigningKey),
    createSigningKey: async (key) => toSigningKey(await store.insert(signingKeys, columnValues(signingKeys, key), signingKeyKey(key.id))),
    async deleteSigningKey(id) {
      await store.remove(signingKeys, signingKeyKey(id))
    },

    transaction: (fn) => store.transaction((tx) => fn(drizzleAdapter(tx, t))),
  }
  return adapter
}
