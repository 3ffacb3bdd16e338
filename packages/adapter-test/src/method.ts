/**
 * A method of the adapter under test, bound to it. The contract makes most methods optional, so
 * a test that needs one fails by naming it rather than with "undefined is not a function".
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"

/** The adapter's method `name`, or a failure that says which method the adapter lacks. */
export function method<K extends keyof Adapter>(adapter: Adapter, name: K): NonNullable<Adapter[K]> {
  const fn = adapter[name]
  if (typeof fn !== "function") throw new Error(`The adapter does not implement ${String(name)}.`)
  return (fn as (...args: unknown[]) => unknown).bind(adapter) as NonNullable<Adapter[K]>
}
