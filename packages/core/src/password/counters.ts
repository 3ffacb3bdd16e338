/**
 * Counters of attempts under a key, until an expiry: what brute-force throttling keeps.
 *
 * The adapter's generic store keeps them as the model {@link counterModel} (shared by every instance
 * of the app, the table `sesame_counters` that every release has made), and
 * {@link memoryCounterStore} is the default when the adapter has no store: per process, bounded.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ModelDeclaration, Store } from "../store/model.js"
import type { Awaitable } from "../types.js"

/** Counters in the generic store: one row a key, gone at its expiry. */
export const counterModel = {
  name: "counters",
  table: "sesame_counters",
  primaryKey: "key",
  expires: "expires",
  fields: {
    key: { type: "string" },
    count: { type: "integer" },
    expires: { type: "date" },
  },
} as const satisfies ModelDeclaration

/** A counter of attempts under a key, kept until `expires`. */
export interface Counter {
  key: string
  count: number
  expires: Date
}

/** Where counters are kept: the adapter's store (`storeCounters`), memory, or the app's own. */
export interface CounterStore {
  /**
   * Adds one to the counter `key` and sets its expiry to `expires`, in one atomic step: a counter
   * that is missing or has expired starts again at 1. Returns the counter after the increment.
   */
  incrementCounter(key: string, expires: Date): Awaitable<Counter>
  /** The counter `key`, or null when it is missing or has expired. */
  getCounter(key: string): Awaitable<Counter | null>
  /** Removes the counter `key` (nothing when it is missing). */
  deleteCounter(key: string): Awaitable<void>
}

export interface MemoryCounterStoreOptions {
  /**
   * How many counters to keep at most. When full, expired counters are dropped, then the ones
   * least recently incremented, so memory stays bounded however many addresses an attacker
   * tries. Default 100000.
   */
  maxKeys?: number
}

/**
 * A {@link CounterStore} in this process's memory: not shared between processes or instances, and
 * lost on restart, so an app that runs several should give its throttle a shared store.
 */
export function memoryCounterStore(options: MemoryCounterStoreOptions = {}): CounterStore {
  const maxKeys = options.maxKeys ?? 100_000
  const counters = new Map<string, { count: number; expires: number }>()

  const live = (key: string, now: number) => {
    const entry = counters.get(key)
    if (entry && entry.expires <= now) counters.delete(key)
    return entry && entry.expires > now ? entry : undefined
  }

  // Keys added since expired ones were last swept out.
  let sinceSweep = 0
  const makeRoom = (now: number) => {
    // A full sweep costs a pass over every key: done once per tenth of the store's size in new
    // keys, so that a flood of new keys (an attacker's addresses) costs a constant time each.
    if (sinceSweep >= maxKeys / 10) {
      sinceSweep = 0
      for (const [key, entry] of counters) if (entry.expires <= now) counters.delete(key)
    }
    // Map iteration follows insertion order, and an increment re-inserts its key: the first keys
    // are the least recently incremented.
    for (const key of counters.keys()) {
      if (counters.size < maxKeys) break
      counters.delete(key)
    }
  }

  return {
    incrementCounter(key, expires) {
      const now = Date.now()
      const count = (live(key, now)?.count ?? 0) + 1
      if (!counters.delete(key)) sinceSweep++
      if (counters.size >= maxKeys) makeRoom(now)
      counters.set(key, { count, expires: expires.getTime() })
      return { key, count, expires: new Date(expires.getTime()) }
    },
    getCounter(key) {
      const entry = live(key, Date.now())
      return entry ? { key, count: entry.count, expires: new Date(entry.expires) } : null
    },
    deleteCounter(key) {
      counters.delete(key)
    },
  }
}

/**
 * The store used when neither the options nor the adapter give one. It belongs to the process
 * rather than to a configuration, so that a lazy configuration, which builds a new one for every
 * request, still counts across requests.
 */
export const processCounterStore: CounterStore = memoryCounterStore()

/** Counters kept in the generic store, as {@link counterModel}: an increment is the store's atomic one. */
export function storeCounters(store: Store): CounterStore {
  const counter = (row: Record<string, unknown>): Counter => ({ key: row.key as string, count: row.count as number, expires: row.expires as Date })
  return {
    async incrementCounter(key, expires) {
      // The expiry moves with every increment: a throttle forgets `forgetAfter` after the last failure.
      return counter(await store.increment(counterModel, { key }, "count", { create: { key, count: 0, expires }, set: { expires } }))
    },
    async getCounter(key) {
      const row = await store.findOne(counterModel, { key })
      return row && counter(row)
    },
    async deleteCounter(key) {
      await store.delete(counterModel, { key })
    },
  }
}

/**
 * Where a flow keeps its counters: the store the app gave, else the adapter's store when it has
 * one (shared by every instance of the app), else this process's memory.
 */
export function counterStoreFor(given: CounterStore | undefined, adapter: CheckedAdapter | undefined): CounterStore {
  return given ?? (adapter?.store ? storeCounters(adapter.store) : processCounterStore)
}
