/**
 * An adapter that keeps everything in memory: for tests, examples and quick starts. It implements
 * the whole contract, authenticators and session management included, with the same integrity
 * rules as the SQL adapters: unique emails, unique (provider, providerAccountId), unique session
 * tokens and credential ids, references to existing users, and cascading deletes. `listUsers`
 * sorts and filters every user for each page: fine for what memory holds. Every value is
 * copied in and out, so callers never share objects with the store. Declared models (passwords,
 * counters, second factors, signing keys, plugins' data) live in its generic store (`store`,
 * `store/memory.ts`), whose deletions cascade from the user as the tables' do.
 *
 * @module
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "./types.js"
import { memoryStore } from "../store/memory.js"
import { byEmailThenId, checkUserListQuery, isAfter, matchesSearch, userListPage } from "./list-users.js"

/** The adapter plus its raw tables, for tests that inspect what was stored. */
export interface MemoryAdapter extends Required<Omit<Adapter, "transaction">> {
  readonly tables: {
    users: Map<string, AdapterUser>
    accounts: Map<string, AdapterAccount>
    sessions: Map<string, AdapterSession>
    verificationTokens: Map<string, VerificationToken>
    authenticators: Map<string, AdapterAuthenticator>
  }
}

/** The spec's fields of a user. */
const userFields = ["id", "name", "email", "emailVerified", "image"]

const accountKey = (provider: string, providerAccountId: string) => `${provider}\u0000${providerAccountId}`
const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`

function copy<T>(value: T): T {
  return structuredClone(value)
}

/** A fresh, empty in-memory store. */
export function MemoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()

  const userByEmail = (email: string) => [...users.values()].find((u) => u.email === email) ?? null
  const requireUser = (id: string) => {
    if (!users.has(id)) throw new Error(`No user with id "${id}".`)
  }

  const store = memoryStore((id) => users.has(id))

  const adapter: MemoryAdapter = {
    store,
    tables: { users, accounts, sessions, verificationTokens, authenticators },

    async createUser(user) {
      if (userByEmail(user.email)) throw new Error("A user with this email already exists.")
      const stored = { ...copy(user), id: user.id ?? crypto.randomUUID() }
      if (users.has(stored.id)) throw new Error("A user with this id already exists.")
      users.set(stored.id, stored)
      return copy(stored)
    },
    async getUser(id) {
      const user = users.get(id)
      return user ? copy(user) : null
    },
    async getUserByEmail(email) {
      const user = userByEmail(email)
      return user ? copy(user) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      const user = account && users.get(account.userId)
      return user ? copy(user) : null
    },
    async updateUser(update) {
      const user = users.get(update.id)
      if (!user) throw new Error(`No user with id "${update.id}".`)
      if (update.email !== undefined && update.email !== user.email && userByEmail(update.email)) {
        throw new Error("A user with this email already exists.")
      }
      const stored = { ...user, ...copy(update) }
      users.set(user.id, stored)
      return copy(stored)
    },
    async deleteUser(id) {
      const user = users.get(id)
      if (!user) return null
      users.delete(id)
      for (const [key, account] of accounts) if (account.userId === id) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === id) sessions.delete(key)
      for (const [key, authenticator] of authenticators) if (authenticator.userId === id) authenticators.delete(key)
      store.userDeleted(id)
      return copy(user)
    },

    async linkAccount(account) {
      requireUser(account.userId)
      const key = accountKey(account.provider, account.providerAccountId)
      if (accounts.has(key)) throw new Error("This provider account is already linked.")
      accounts.set(key, copy(account))
      return copy(account)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      accounts.delete(key)
      return account ? copy(account) : undefined
    },
    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? copy(account) : null
    },
    async updateAccount(update) {
      const key = accountKey(update.provider, update.providerAccountId)
      const account = accounts.get(key)
      if (!account) return null
      const stored = { ...account, ...copy(update), userId: account.userId }
      accounts.set(key, stored)
      return copy(stored)
    },
    async listAccountsByUserId(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map(copy)
    },

    async createSession(session) {
      requireUser(session.userId)
      if (sessions.has(session.sessionToken)) throw new Error("A session with this token already exists.")
      sessions.set(session.sessionToken, copy(session))
      return copy(session)
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      return session && user ? { session: copy(session), user: copy(user) } : null
    },
    async updateSession(update) {
      const session = sessions.get(update.sessionToken)
      if (!session) return null
      const stored = { ...session, ...copy(update) }
      sessions.set(session.sessionToken, stored)
      return copy(stored)
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      sessions.delete(sessionToken)
      return session ? copy(session) : null
    },
    async listSessionsByUserId(userId) {
      return [...sessions.values()].filter((s) => s.userId === userId).map(copy)
    },
    async deleteSessionsByUserId(userId, except) {
      let count = 0
      for (const [key, session] of sessions) {
        if (session.userId === userId && key !== except) {
          sessions.delete(key)
          count++
        }
      }
      return count
    },

    async listUsers(query) {
      const { search, limit, after } = checkUserListQuery(query)
      const rows = [...users.values()].filter((u) => isAfter(u, after) && matchesSearch(u, search)).sort(byEmailThenId)
      return userListPage(rows.slice(0, limit + 1).map(copy), limit)
    },

    async createVerificationToken(token) {
      verificationTokens.set(tokenKey(token.identifier, token.token), copy(token))
      return copy(token)
    },
    async useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token)
      const stored = verificationTokens.get(key)
      if (!stored) return null
      // Read and delete with no await in between: one of two concurrent uses wins.
      verificationTokens.delete(key)
      return copy(stored)
    },

    async createAuthenticator(authenticator) {
      requireUser(authenticator.userId)
      if (authenticators.has(authenticator.credentialID)) throw new Error("An authenticator with this credential id already exists.")
      authenticators.set(authenticator.credentialID, copy(authenticator))
      return copy(authenticator)
    },
    async getAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      return authenticator ? copy(authenticator) : null
    },
    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy)
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const authenticator = authenticators.get(credentialID)
      if (!authenticator) throw new Error(`No authenticator with credential id "${credentialID}".`)
      authenticator.counter = newCounter
      return copy(authenticator)
    },
    async updateAuthenticator(credentialID, data) {
      const authenticator = authenticators.get(credentialID)
      if (!authenticator) throw new Error(`No authenticator with credential id "${credentialID}".`)
      Object.assign(authenticator, copy(data))
      return copy(authenticator)
    },
    async deleteAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      authenticators.delete(credentialID)
      return authenticator ? copy(authenticator) : null
    },

    withUserFields(model) {
      // Everything is kept as given; bound, the user keeps the spec's fields and the declared ones only.
      const kept = new Set([...userFields, ...Object.keys(model.fields)])
      const declared = <T extends object>(user: T): T => Object.fromEntries(Object.entries(user).filter(([name]) => kept.has(name))) as T
      return { ...adapter, createUser: (user) => adapter.createUser(declared(user)), updateUser: (update) => adapter.updateUser(declared(update)) }
    },
  }
  return adapter
}
