/**
 * Raw reads of the Redis keys for the conformance suite: `HGETALL` on a client of the test's
 * choosing, bypassing the adapter, its scripts and the store. Sesame's own models are read where
 * the store keeps their rows (`model:<table>:<key>`, see `src/store/keys.ts`).
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import { keys } from "@sesame/adapter-redis"
import { builtInModels, type AdapterPassword, type AdapterSigningKey, type AdapterTwoFactor, type ModelDeclaration } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { toAccount, toAuthenticator, toSession, toUser, toVerificationToken, type FlatRecord } from "../src/records.js"
import { decodeRow } from "../src/store/encode.js"
import { joinParts, modelKeys } from "../src/store/keys.js"

export function rawReader(client: Redis, prefix: string, disconnect?: () => Promise<void>): AdapterTestDb {
  const k = keys(prefix)
  const read = async <T>(map: (flat: FlatRecord) => T, key: string): Promise<T | null> => {
    const hash = await client.hgetall(key)
    const flat = Object.entries(hash).flat()
    return flat.length === 0 ? null : map(flat)
  }
  /** The row of `model` with primary key `key`, as the store wrote it. */
  const row = async <T>(model: ModelDeclaration, key: readonly string[]): Promise<T | null> => {
    const hash = await client.hgetall(prefix + modelKeys.row(model.table, joinParts(key)))
    return Object.keys(hash).length === 0 ? null : (decodeRow(model, hash) as T)
  }
  const { passwords, counters, twoFactors, recoveryCodes, signingKeys } = builtInModels
  return {
    disconnect,
    user: (id) => read(toUser, k.user(id)),
    account: ({ provider, providerAccountId }) => read(toAccount, k.account(provider, providerAccountId)),
    session: (token) => read(toSession, k.session(token)),
    verificationToken: ({ identifier, token }) => read(toVerificationToken, k.verificationToken(identifier, token)),
    authenticator: (id) => read(toAuthenticator, k.authenticator(id)),
    password: (userId) => row<AdapterPassword>(passwords, [userId]),
    counter: (key) => row<{ key: string; count: number; expires: Date }>(counters, [key]),
    twoFactor: (userId) => row<AdapterTwoFactor>(twoFactors, [userId]),
    async recoveryCodes(userId) {
      // The user's rows are listed in the index of their `userId` (a reference to the user).
      const index = prefix + modelKeys.group(recoveryCodes.table, false, ["userId"], [userId])
      const rows = await Promise.all((await client.zrange(index, "0", "-1")).map((key) => client.hget(prefix + modelKeys.row(recoveryCodes.table, key), "hash")))
      return rows.filter((hash) => hash !== null)
    },
    signingKey: (id) => row<AdapterSigningKey>(signingKeys, [id]),
  }
}
