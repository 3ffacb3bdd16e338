/**
 * Counters of attempts under a key, until an expiry: what brute-force throttling keeps.
 *
 * {@link CounterStore} is the shape of the adapter methods `incrementCounter`, `getCounter` and
 * `deleteCounter`, so an adapter with them is a store (shared by every instance of the app), and
 * {@link memoryCounterStore} is the default when the adapter has none: per process, bounded.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { Awaitable } from "../types.js"

/** A counter of attempts under a key, kept until `expires`. */
export interface Counter {
  key: string
  count: number
  expires: Date
}

/** Where counters are kept. An adapter with these three methods is one. */
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

  const makeRoom = (now: number) => {
    for (const [key, entry] of counters) if (entry.expires <= now) counters.delete(key)
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
      counters.delete(key)
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

/**
 * Where a flow keeps its counters: the store the app gave, else the adapter's counters when it has
 * them (shared by every instance of the app), else this process's memory.
 */
export function counterStoreFor(given: CounterStore | undefined, adapter: CheckedAdapter | undefined): CounterStore {
  return given ?? (adapter?.has("incrementCounter") ? adapter : processCounterStore)
}
