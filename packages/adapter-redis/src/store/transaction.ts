/**
 * The store of one adapter transaction (`../transaction.ts` runs the adapter's calls by optimistic
 * replay; the store's writes cannot wait for the commit, since `fn` reads them back).
 *
 * - A create may refer to a user that the transaction created (`users`, the ids of the users its
 *   `createUser` calls returned): the user exists only at the commit, so the script is told to take
 *   those ids as existing, for that create only. Any other reference is checked as usual.
 * - Every row it creates is recorded (model and primary key). When the transaction fails (`fn`
 *   throws, or the commit meets a conflict or a broken rule), `compensate` deletes those rows,
 *   through the store (their index entries and the rows that refer to them go too), before the
 *   error goes on. A deletion that fails in turn (Redis unreachable) leaves its row behind.
 * - Updates, deletions and increments commit at once and are not undone; an increment or an
 *   update refers only to users that exist (Sesame's core updates rows inside a transaction only
 *   for users that already exist). Reads see the committed rows.
 *
 * After the transaction, the store is the plain store.
 *
 * @module
 */
import { primaryKeyOf, type ModelDeclaration, type Store, type Where } from "@sesame/core/adapters"
import { createWithUsers, type RedisStore } from "./store.js"

export interface TransactionStore {
  store: Store
  /** Deletes the rows the store created; after it, the store is the plain store. */
  compensate(): Promise<void>
  /** The transaction committed: the rows stay; after it, the store is the plain store. */
  end(): void
}

const ignore = () => {}

export function transactionStore(base: RedisStore, users: ReadonlySet<string>): TransactionStore {
  const created: [ModelDeclaration, Where][] = []
  const pending = new Set<Promise<unknown>>()
  let open = true

  const store: Store = {
    ...base,
    create(model, data) {
      if (!open) return base.create(model, data)
      const write = base[createWithUsers](model, data, [...users]).then((row) => {
        created.push([model, Object.fromEntries(primaryKeyOf(model).map((field) => [field, row[field]!]))])
        return row
      })
      const settled = write.then(ignore, ignore)
      pending.add(settled)
      void settled.then(() => pending.delete(settled))
      return write
    },
    transaction: (fn) => fn(store),
  }

  return {
    store,
    async compensate() {
      open = false
      // A create still under way is recorded before its row is looked for.
      await Promise.all(pending)
      for (const [model, key] of created.reverse()) await base.delete(model, key).catch(ignore)
      created.length = 0
    },
    end() {
      open = false
      created.length = 0
    },
  }
}
