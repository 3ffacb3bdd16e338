/**
 * An adapter whose storage "goes away" on demand, for tests of what Sesame answers during an
 * outage: while {@link Outage.down}, every method (and every operation of its `store`) fails as
 * node-postgres fails when the server refuses connections (`connect ECONNREFUSED`, `code:
 * "ECONNREFUSED"`), so Sesame must recognise the failure by what drivers really throw.
 *
 * @module
 */

/** The error a driver throws when nothing listens on the database's port. */
export function connectionRefused(): Error {
  return Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", errno: -111, syscall: "connect", address: "127.0.0.1", port: 5432 })
}

export interface Outage<A> {
  /** The adapter to configure: `adapter`'s methods, failing while down. */
  readonly adapter: A
  /** From now on, every call fails (calls already running finish). */
  down(): void
  up(): void
  readonly isDown: boolean
  /** Calls made (and refused) while down, by method name (`store.findOne` for the store's). */
  readonly refused: Map<string, number>
}

function failing<T extends object>(target: T, state: { down: boolean; refused: Map<string, number> }, prefix: string, wrapStore: boolean): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver)
      if (property === "store" && wrapStore && value && typeof value === "object") return failing(value as object, state, "store.", false)
      if (typeof value !== "function" || typeof property !== "string") return value
      return function (this: unknown, ...args: unknown[]) {
        if (state.down) {
          const name = `${prefix}${property}`
          state.refused.set(name, (state.refused.get(name) ?? 0) + 1)
          return Promise.reject(connectionRefused())
        }
        const self = this === receiver ? object : this
        const fn = value as (...a: unknown[]) => unknown
        // A transaction hands its callback an adapter (or store) that must fail too.
        if (property === "transaction" && typeof args[0] === "function") {
          const callback = args[0] as (tx: object) => unknown
          return fn.call(self, (tx: object) => callback(failing(tx, state, prefix, wrapStore)))
        }
        // `withUserFields` makes another adapter on the same storage.
        if (property === "withUserFields") return failing(fn.apply(self, args) as object, state, prefix, wrapStore)
        return fn.apply(self, args)
      }
    },
  })
}

/** `adapter`, failing on demand. */
export function outage<A extends object>(adapter: A): Outage<A> {
  const state = { down: false, refused: new Map<string, number>() }
  return {
    adapter: failing(adapter, state, "", true),
    down: () => void (state.down = true),
    up: () => void (state.down = false),
    get isDown() {
      return state.down
    },
    refused: state.refused,
  }
}
