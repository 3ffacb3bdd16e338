/**
 * `@sesame/adapter-redis`: Sesame's adapter for Redis on ioredis.
 *
 * ```ts
 * import { Redis } from "ioredis"
 * import RedisAdapter from "@sesame/adapter-redis"
 * const adapter = RedisAdapter(new Redis(process.env.REDIS_URL!), { prefix: "myapp:auth:" })
 * ```
 *
 * Every method is one call of one Lua script (see `lua/`), which Redis runs with nothing in
 * between: unique emails, provider accounts and credential ids hold under any concurrency, a
 * verification token is used once, a user's deletion takes its accounts, sessions and
 * authenticators with it, and a write touching several keys is never seen (or left) half done.
 * Sessions expire in Redis at their `expires`. Transactions work by optimistic replay (see
 * `transaction.ts`).
 *
 * `store` keeps the rows of declared models (see `store/store.ts`), Sesame's own among them
 * (password hashes, counters, second factors, recovery codes, signing keys): each write is one
 * call of a second script, rows of models with `expires` expire in Redis, and a user's deletion
 * takes the rows that refer to the user. Its `transaction` cannot roll back: it runs `fn`
 * directly. A transaction of the adapter hands `fn` a store of its own (`store/transaction.ts`),
 * whose writes commit at once: its creates may refer to the users the transaction created, and are
 * deleted again when the transaction fails; its updates, deletions and increments are not undone. `migrate` moves the data release 0.1 kept in keys of its own into the store; the adapter
 * runs it itself before its first call when the prefix is not marked as moved (see `ready.ts`), so
 * that neither the adapter nor its store is ever read before the move.
 *
 * `withUserFields(model)` is the same adapter (client, prefix, store) whose users' hashes hold the
 * app's declared user fields too (see `user-fields.ts`).
 *
 * `listUsers` is the one method that is not a script call: each page scans the email index's keys
 * (`SCAN`, the whole database's keys) and reads users from the cursor on (see `list-users.ts`).
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { userLister } from "./list-users.js"
import { operations } from "./operations.js"
import { checkOptions, type RedisAdapterOptions } from "./options.js"
import { storeLayoutReady } from "./ready.js"
import { plainUsers, type UserRecords } from "./records.js"
import { batchRunner, type RunBatch } from "./run.js"
import { redisStore } from "./store/store.js"
import { transactionStore } from "./store/transaction.js"
import { runTransaction } from "./transaction.js"
import { userFieldRecords } from "./user-fields.js"

export { keys } from "./keys.js"
export { migrate, type MigratedModel, type MigrateOptions, type MigrationReport } from "./migrate.js"
export type { RedisAdapterOptions } from "./options.js"
export { TransactionConflict } from "./run.js"

const ignore = () => {}

/**
 * The Redis adapter. `client` is an ioredis `Redis` client, used as it is (its connection options,
 * retries and offline queue decide how an outage looks: by default a command waits for the
 * connection to come back, then fails after 20 retries).
 */
export default function RedisAdapter(client: Redis, options: RedisAdapterOptions = {}): Adapter {
  const checked = checkOptions(options, "RedisAdapter")
  // ioredis adds its `keyPrefix` to the keys a command declares, but the script declares none
  // (it builds its keys), so the client's prefix is put in front of the adapter's here.
  const prefix = (client.options.keyPrefix ?? "") + checked.prefix
  const { verificationTokenGraceMs, tables } = checked
  // An `error` event with no listener is reported by ioredis on the console for every reconnect
  // attempt; the failures that matter reach Sesame as rejected calls.
  if (options.onError) client.on("error", options.onError)
  else if (client.listenerCount("error") === 0) client.on("error", ignore)
  // Nothing is read or written before the records of 0.1 are in the store (`ready.ts`).
  const ready = storeLayoutReady(client, checked.prefix, tables)
  const batch = batchRunner(client, prefix)
  const run: RunBatch = async (mode, operations, expected) => {
    await ready()
    return batch(mode, operations, expected)
  }
  const store = redisStore(client, { prefix: checked.prefix, scriptPrefix: prefix, tables, ready })

  /** The adapter whose user records are `records`: the contract's fields, or the app's declared ones too. */
  function adapterOf(records: UserRecords): Adapter {
    const settings = { verificationTokenGraceMs, users: records }
    const listUsers = userLister(client, prefix, ready, run, records)
    // A transaction's adapter has a store of its own (`store/transaction.ts`): its writes commit at
    // once, since `fn` reads them back (the adapter's own calls still wait for the commit); its
    // creates may refer to the users the transaction created, and are deleted when it fails.
    async function transaction<T>(fn: (tx: Adapter) => Promise<T>): Promise<T> {
      const users = new Set<string>()
      const tx = transactionStore(store, users)
      try {
        const value = await runTransaction(run, settings, (plain) => {
          const adapter: Adapter = {
            ...plain,
            async createUser(user) {
              const created = await plain.createUser!(user)
              users.add(created.id)
              return created
            },
            async deleteUser(id) {
              const deleted = await plain.deleteUser!(id)
              users.delete(id)
              return deleted
            },
            store: tx.store,
            // Committed users only, as a store read: a page is no step of the replay.
            listUsers,
            // Nested transactions join this one.
            transaction: (inner) => inner(adapter),
          }
          return fn(adapter)
        })
        tx.end()
        return value
      } catch (error) {
        await tx.compensate()
        throw error
      }
    }
    return {
      ...operations((operation) => run("keep", [operation], []), settings),
      listUsers,
      transaction,
      store,
      // The same client, prefix and store; only what a user's record holds differs.
      withUserFields: (model) => adapterOf(userFieldRecords(model)),
    }
  }
  return adapterOf(plainUsers)
}
