/**
 * The store as the rest of Sesame calls it, like the checked adapter: a driver's failure becomes
 * an `AdapterError` carrying it, debug logs name the operation and the model but never the values
 * (they may be hashes, secrets sealed or not, addresses). What the contract itself throws passes
 * through: `StoreConflict` (a flow may expect it) and a `TypeError` (a mistake in a declaration).
 *
 * @module
 */
import type { Availability } from "../adapters/availability.js"
import { AdapterError, AuthError, MissingAdapterMethods } from "../errors.js"
import type { LoggerInstance } from "../logger.js"
import { StoreConflict, type ModelDeclaration, type Store } from "./model.js"

type Operation = Exclude<keyof Store, "transaction">
const operations: Operation[] = ["create", "findOne", "findMany", "update", "delete", "count", "increment"]
/** The operations that only read: tried again when the storage could not be reached. */
const reads: ReadonlySet<Operation> = new Set<Operation>(["findOne", "findMany", "count"])

/**
 * Wraps `store` for internal use, its operations run through the adapter's `availability`
 * (`adapters/availability.ts`); none is tried again `inTransaction`.
 */
export function checkStore(store: Store, logger: Pick<LoggerInstance, "debug">, availability: Availability, inTransaction = false): Store {
  const checked = {
    transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
      const run = () => store.transaction((tx) => fn(checkStore(tx, logger, availability, true)))
      return availability.run(run, "never").catch((error: unknown) => {
        throw passThrough(error) ? error : new AdapterError("Store transaction failed.", { cause: error })
      })
    },
  } as Store
  for (const operation of operations) {
    const retry = inTransaction ? "never" : reads.has(operation) ? "read" : "write"
    ;(checked as unknown as Record<string, unknown>)[operation] = async (model: ModelDeclaration, ...args: unknown[]) => {
      logger.debug(`store ${operation} ${model.name}`)
      try {
        return await availability.run(async () => (store[operation] as (...all: unknown[]) => Promise<unknown>).call(store, model, ...args), retry)
      } catch (error) {
        if (passThrough(error)) throw error
        throw new AdapterError(`Store ${operation} of "${model.name}" failed.`, { cause: error })
      }
    }
  }
  return checked
}

/** Errors that stay as they are: the contract's own, and Sesame's (a `StorageUnavailable`, an inner `AdapterError`). */
function passThrough(error: unknown): boolean {
  return error instanceof StoreConflict || error instanceof TypeError || error instanceof AuthError
}

/**
 * The adapter's store, for a feature that keeps its data there; `MissingAdapterMethods` naming
 * the feature when the adapter has none (configuration validation turns such features off first,
 * so this is for what the app calls directly).
 */
export function storeOf(adapter: { readonly store: Store | undefined }, feature: string): Store {
  if (!adapter.store) throw new MissingAdapterMethods(`The adapter has no generic store (\`store\`), which ${feature} needs.`)
  return adapter.store
}
