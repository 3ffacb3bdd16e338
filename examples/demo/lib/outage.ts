/**
 * A database outage on demand, so that the demo can show what Sesame does when its storage goes
 * away for a few seconds (a restart, a failover): every call of the adapter and of its store
 * throws `StorageUnavailable` (what an adapter throws to say so) until the outage ends. Sesame
 * answers `503` and "Try again in a moment", and nobody is signed out.
 *
 * The end is kept on `globalThis`, not in this module: Next.js may load the module more than once
 * in one server (the pages' bundle, the route handlers'), and they must agree.
 */
import type { Adapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"

const key = Symbol.for("sesame.demo.outage-ends-at")
const holder = globalThis as typeof globalThis & { [key]?: number }

/** How long the home page's button takes the database away. */
export const outageSeconds = 8

/** Takes the database away for `seconds`. */
export function startOutage(seconds = outageSeconds): void {
  holder[key] = Date.now() + seconds * 1000
}

/** Seconds until the outage ends (rounded up), or 0 when there is none. */
export function outageLeft(): number {
  return Math.max(0, Math.ceil(((holder[key] ?? 0) - Date.now()) / 1000))
}

/** `target` with every method failing during an outage; `store` (an object of methods) as well. */
function failing<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver)
      if (property === "store" && value && typeof value === "object") return failing(value)
      if (typeof value !== "function") return value
      // The same adapter with the app's user fields (what Sesame uses when `user.fields` is set).
      if (property === "withUserFields") return (...args: unknown[]) => failing((value as (...a: unknown[]) => object).apply(object, args))
      return (...args: unknown[]) => {
        if (outageLeft() > 0) return Promise.reject(new StorageUnavailable("The demo's simulated database outage.", { retryAfter: outageLeft() }))
        return (value as (...a: unknown[]) => unknown).apply(object, args)
      }
    },
  })
}

/** `adapter`, going away during the demo's outages. */
export function withOutages(adapter: Adapter): Adapter {
  return failing(adapter)
}
