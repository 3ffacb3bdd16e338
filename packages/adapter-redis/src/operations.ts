/**
 * The adapter's methods, each one operation of the script: arguments become hash fields, the
 * encoded result becomes a model. The same methods serve the adapter itself (each call commits at
 * once) and a transaction (each call is a dry run, replayed at commit), through `call`.
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { accountRef, tokenRef } from "./keys.js"
import {
  accountFields,
  accountTokenFields,
  authenticatorFields,
  fields,
  sessionRecord,
  sessionUpdateFields,
  toAccount,
  toAuthenticator,
  toSession,
  toVerificationToken,
  verificationTokenFields,
  type FlatRecord,
  type UserRecords,
} from "./records.js"
import type { Operation } from "./run.js"

/** Runs one operation; resolves with its result as the script encodes it (JSON). */
export type Call = (operation: Operation) => Promise<string>

export interface OperationOptions {
  /** Milliseconds a verification token's key outlives its `expires`. */
  verificationTokenGraceMs: number
  /** What a user's record holds: the contract's fields, or the app's declared ones too. */
  users: UserRecords
}

/**
 * Every method of the contract but `transaction` and `withUserFields` (and `store`, which is no
 * method), and `listUsers`, which scans (`list-users.ts`) rather than running one operation.
 */
export type AdapterMethods = Required<Omit<Adapter, "transaction" | "store" | "withUserFields" | "listUsers">>

export function operations(call: Call, options: OperationOptions): AdapterMethods {
  const { users } = options
  const result = async <T>(operation: Operation, map: (value: never) => T): Promise<T | null> => {
    const value: unknown = JSON.parse(await call(operation))
    return value === null ? null : map(value as never)
  }
  const list = async <T>(operation: Operation, map: (record: FlatRecord) => T): Promise<T[]> =>
    (await result(operation, (records: FlatRecord[]) => records.map(map))) ?? []
  /** For methods whose operation fails rather than finding nothing. */
  const found = <T>(value: T | null): T => {
    if (value === null) throw new Error("The store returned no record.")
    return value
  }

  return {
    async createUser(user) {
      return found(await result(["createUser", users.create({ ...user, id: user.id ?? crypto.randomUUID() })], users.read))
    },
    getUser: (id) => result(["getUser", id], users.read),
    getUserByEmail: (email) => result(["getUserByEmail", email], users.read),
    getUserByAccount: ({ provider, providerAccountId }) => result(["getUserByAccount", accountRef(provider, providerAccountId)], users.read),
    async updateUser(user) {
      return found(await result(["updateUser", user.id, users.update(user)], users.read))
    },
    deleteUser: (id) => result(["deleteUser", id], users.read),

    async linkAccount(account) {
      return found(await result(["linkAccount", accountRef(account.provider, account.providerAccountId), fields(account, accountFields)], toAccount))
    },
    async unlinkAccount({ provider, providerAccountId }) {
      return (await result(["unlinkAccount", accountRef(provider, providerAccountId)], toAccount)) ?? undefined
    },
    getAccount: (providerAccountId, provider) => result(["getAccount", accountRef(provider, providerAccountId)], toAccount),
    updateAccount: (account) =>
      result(["updateAccount", accountRef(account.provider, account.providerAccountId), fields(account, accountTokenFields, true)], toAccount),
    listAccountsByUserId: (userId) => list(["listAccountsByUserId", userId], toAccount),

    async createSession(session) {
      return found(await result(["createSession", sessionRecord(session)], toSession))
    },
    getSessionAndUser: (sessionToken) =>
      result(["getSessionAndUser", sessionToken], ([session, user]: [FlatRecord, FlatRecord]) => ({ session: toSession(session), user: users.read(user) })),
    updateSession: (session) => result(["updateSession", session.sessionToken, fields(session, sessionUpdateFields, true)], toSession),
    deleteSession: (sessionToken) => result(["deleteSession", sessionToken], toSession),
    listSessionsByUserId: (userId) => list(["listSessionsByUserId", userId], toSession),
    async deleteSessionsByUserId(userId, except) {
      // Session tokens are SHA-256 hashes, never empty, so "" excepts nothing.
      return found(await result(["deleteSessionsByUserId", userId, except ?? ""], (count: number) => count))
    },

    async createVerificationToken(token) {
      // Kept a while past its expiry, so that a late use gets the token back (and is refused as
      // expired by the caller) rather than finding nothing. A token already expired when created
      // (possible only through a caller's clock) is kept for the grace period from now.
      const expiresAt = Math.max(token.expires.getTime(), Date.now()) + options.verificationTokenGraceMs
      const operation: Operation = ["createVerificationToken", tokenRef(token.identifier, token.token), fields(token, verificationTokenFields), String(expiresAt)]
      return found(await result(operation, toVerificationToken))
    },
    useVerificationToken: ({ identifier, token }) => result(["useVerificationToken", tokenRef(identifier, token)], toVerificationToken),

    async createAuthenticator(authenticator) {
      return found(await result(["createAuthenticator", fields(authenticator, authenticatorFields)], toAuthenticator))
    },
    getAuthenticator: (credentialID) => result(["getAuthenticator", credentialID], toAuthenticator),
    listAuthenticatorsByUserId: (userId) => list(["listAuthenticatorsByUserId", userId], toAuthenticator),
    async updateAuthenticatorCounter(credentialID, newCounter) {
      return found(await result(["updateAuthenticator", credentialID, { counter: String(newCounter) }], toAuthenticator))
    },
    async updateAuthenticator(credentialID, data) {
      return found(await result(["updateAuthenticator", credentialID, fields(data, ["name"], true)], toAuthenticator))
    },
    deleteAuthenticator: (credentialID) => result(["deleteAuthenticator", credentialID], toAuthenticator),
  }
}
