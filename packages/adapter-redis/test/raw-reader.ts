/**
 * Raw reads of the Redis keys for the conformance suite: `HGETALL` on a client of the test's
 * choosing, bypassing the adapter and its script.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { keys } from "@sesame/adapter-redis"
import type { Redis } from "ioredis"
import { toAccount, toAuthenticator, toCounter, toPassword, toSession, toSigningKey, toTwoFactor, toUser, toVerificationToken, type FlatRecord } from "../src/records.js"

export function rawReader(client: Redis, prefix: string, disconnect?: () => Promise<void>): AdapterTestDb {
  const k = keys(prefix)
  const read = async <T>(map: (flat: FlatRecord) => T, key: string): Promise<T | null> => {
    const hash = await client.hgetall(key)
    const flat = Object.entries(hash).flat()
    return flat.length === 0 ? null : map(flat)
  }
  return {
    disconnect,
    user: (id) => read(toUser, k.user(id)),
    account: ({ provider, providerAccountId }) => read(toAccount, k.account(provider, providerAccountId)),
    session: (token) => read(toSession, k.session(token)),
    verificationToken: ({ identifier, token }) => read(toVerificationToken, k.verificationToken(identifier, token)),
    authenticator: (id) => read(toAuthenticator, k.authenticator(id)),
    password: (userId) => read(toPassword, k.password(userId)),
    counter: (key) => read(toCounter, k.counter(key)),
    twoFactor: (userId) => read(toTwoFactor, k.twoFactor(userId)),
    recoveryCodes: (userId) => client.smembers(k.recoveryCodes(userId)),
    signingKey: (id) => read(toSigningKey, k.signingKey(id)),
  }
}
