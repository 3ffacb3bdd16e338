/**
 * The generic store of declared models on Redis (`Store` of `@sesame/core/adapters`).
 *
 * Reads are plain commands (`read.ts`); every write is one call of the store's script
 * (`lua/models.ts`), which Redis runs with nothing in between. A create claims the primary key and
 * every unique value together, or refuses with `StoreConflict` and writes nothing. An update or a
 * delete reads the matching rows here, then hands them to the script with the values it read: the
 * script writes only if none of them changed meanwhile, and otherwise answers which did, so that
 * they are read and checked again (a row that still matches is written, one that no longer does
 * is left alone). So `update(invite, { id, status: "pending" }, { status: "used" })` counts 1 for
 * one caller only, however many race. An increment (with its `set`) is one script call: concurrent
 * ones all count, each returning its own count.
 *
 * Redis has no transaction that can be rolled back once a script has run, so `transaction(fn)`
 * runs `fn` with the store itself: each call inside it commits at once, and a throw undoes
 * nothing. (A transaction of the adapter hands `fn` a store of its own, `transaction.ts`.)
 *
 * Every operation first waits for `ready` (`RedisAdapter` passes the wait for the upgrade from 0.1,
 * `../ready.ts`): once it has resolved, one `await`.
 *
 * @module
 */
import { columnOf, conditionsOf, fieldOf, sortRows, StoreConflict, type Conditions, type ModelDeclaration, type Store, type StoredRow, type Where } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { changesOf, completeRow, decodeRow, encodeRow, type Hash } from "./encode.js"
import { joinParts } from "./keys.js"
import { layoutOf, type Layout } from "./layout.js"
import { sourceOf } from "./plan.js"
import { rowReader, type Found, type SelectOptions } from "./read.js"
import { modelScriptRunner } from "./script.js"

export interface RedisStoreOptions {
  /** The adapter's prefix: what plain commands put before a key (ioredis adds the client's `keyPrefix`). */
  prefix: string
  /** The client's `keyPrefix` and the adapter's prefix: what the script puts before the keys it builds. */
  scriptPrefix: string
  /** The table (key part) of a model by name, instead of its declared `table`. */
  tables: Readonly<Record<string, string>>
  /** Awaited before every operation; a rejection rejects the operation. */
  ready: () => Promise<void>
}

/**
 * A create whose references to users also accept `users` (ids of users an adapter transaction has
 * created but not yet committed): for the transaction's store (`transaction.ts`), not public.
 */
export const createWithUsers = Symbol("createWithUsers")

/** The store, with {@link createWithUsers}. */
export type RedisStore = Store & {
  [createWithUsers](model: ModelDeclaration, data: StoredRow, users: readonly string[]): Promise<StoredRow>
}

/** Rounds of "rows changed since read" an update or delete goes through before it gives up. */
const maxAttempts = 10

/** The encoded primary key of a row's hash. */
const keyOf = (layout: Layout, hash: Hash) => joinParts(layout.primaryKey.map((name) => hash[columnOf(layout.model, name)]!))

/** The store on `client`; `RedisAdapter` makes it as its `store`. */
export function redisStore(client: Redis, options: RedisStoreOptions): RedisStore {
  const run = modelScriptRunner(client, options.scriptPrefix)
  const { select } = rowReader(client, options.prefix, run)
  const layouts = new WeakMap<ModelDeclaration, Layout>()
  const { ready } = options

  function layout(model: ModelDeclaration): Layout {
    let found = layouts.get(model)
    if (!found) layouts.set(model, (found = layoutOf(model, options.tables[model.name] ?? model.table)))
    return found
  }

  async function find(model: ModelDeclaration, where: Where | undefined, how: SelectOptions): Promise<[Layout, Conditions, Found[]]> {
    const l = layout(model)
    const conditions = conditionsOf(model, where)
    return [l, conditions, await select(l, sourceOf(l, conditions), conditions, how)]
  }

  /** Runs `update` or `delete` on the rows found, reading again those that changed meanwhile. */
  async function write(l: Layout, operation: "update" | "delete", conditions: Conditions, found: Found[], args: object): Promise<number> {
    let rows = found
    for (let attempt = 0; attempt < maxAttempts && rows.length > 0; attempt++) {
      const reply = await run(l, operation, { ...args, rows: rows.map((f) => [f.key, f.hash]) }, Date.now())
      if (reply === "conflict") throw new StoreConflict(l.model.name)
      if (typeof reply === "number") return reply
      const changed = new Set(reply as string[])
      const again = await select(l, { kind: "rows", keys: [...changed] }, conditions, { live: operation === "update" })
      rows = [...rows.filter((f) => !changed.has(f.key)), ...again]
    }
    if (rows.length === 0) return 0
    throw new Error(`Model "${l.model.name}": the rows to ${operation} kept changing; nothing was written.`)
  }

  async function create(model: ModelDeclaration, data: StoredRow, users: readonly string[]): Promise<StoredRow> {
    await ready()
    const l = layout(model)
    const hash = encodeRow(model, completeRow(model, data))
    const args = { pk: keyOf(l, hash), row: hash, ...(users.length > 0 ? { users } : {}) }
    if ((await run(l, "create", args, Date.now())) === "conflict") throw new StoreConflict(model.name)
    return decodeRow(model, hash)
  }

  const store: RedisStore = {
    create: (model, data) => create(model, data, []),
    [createWithUsers]: create,
    async findOne(model, where) {
      await ready()
      const [, , [found]] = await find(model, where, { live: true, limit: 1 })
      return found?.row ?? null
    },
    async findMany(model, query = {}) {
      await ready()
      const { orderBy = [], offset = 0, limit } = query
      const end = limit === undefined ? undefined : offset + limit
      // Without an order, the first rows found will do.
      const [, , found] = await find(model, query.where, { live: true, limit: orderBy.length === 0 ? end : undefined })
      const rows = found.map((f) => f.row)
      if (orderBy.length > 0) sortRows(model, rows, orderBy)
      return rows.slice(offset, end)
    },
    async update(model, where, values) {
      await ready()
      const set = changesOf(model, values)
      const [l, conditions, found] = await find(model, where, { live: true })
      return write(l, "update", conditions, found, { set })
    },
    async delete(model, where) {
      await ready()
      const [l, conditions, found] = await find(model, where, { live: false })
      return write(l, "delete", conditions, found, {})
    },
    async count(model, where) {
      await ready()
      const [, , found] = await find(model, where, { live: true })
      return found.length
    },
    async increment(model, key, field, { by = 1, create, set = {} }) {
      await ready()
      const l = layout(model)
      if (fieldOf(model, field).type !== "integer") throw new TypeError(`Field "${field}" of model "${model.name}" is not an integer.`)
      if (!Number.isSafeInteger(by)) throw new TypeError(`increment: "by" must be a safe integer; got ${String(by)}.`)
      const hash = encodeRow(model, completeRow(model, { ...create, ...set, ...key, [field]: by }))
      const args = { pk: keyOf(l, hash), col: columnOf(model, field), by, create: hash, set: changesOf(model, set) }
      const reply = await run(l, "increment", args, Date.now())
      if (reply === "conflict") throw new StoreConflict(model.name)
      const flat = reply as string[]
      return decodeRow(model, Object.fromEntries(flat.flatMap((value, i) => (i % 2 === 0 ? [[value, flat[i + 1]!]] : []))))
    },
    /** Runs `fn` with this store: Redis cannot roll back, so each write inside commits at once. */
    transaction: (fn) => fn(store),
  }
  return store
}
