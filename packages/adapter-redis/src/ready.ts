/**
 * The adapter waits for the store's layout before its first call: release 0.1 kept password
 * hashes, second factors, recovery codes, signing keys and counters in keys of its own, and this
 * release reads them from the store only. Serving a read before they are moved would be unsafe:
 * the core would find no second factor for a user who has one, and would not ask for it.
 *
 * So before the first call of an adapter (and of its store), `ready` reads the marker that
 * `migrate` sets when a whole run is done (`store-layout`, one `GET`); while it is missing, it runs
 * `migrate` (safe beside other runs, and cheap on a new, empty database: one `SCAN` that finds
 * nothing), then lets the call through. Every call waits on that one promise, which, once it has
 * resolved, costs one `await`. A failure rejects the calls waiting on it and is forgotten: the next
 * call tries again.
 *
 * @module
 */
import type { Redis } from "ioredis"
import { keys, storeLayoutVersion } from "./keys.js"
import { migrate } from "./migrate.js"

/** Resolves once the records of 0.1 under the adapter's prefix are in the store. */
export type Ready = () => Promise<void>

/** `prefix`: the adapter's, without the client's `keyPrefix` (which ioredis adds to commands). */
export function storeLayoutReady(client: Redis, prefix: string, tables: Readonly<Record<string, string>>): Ready {
  let ready: Promise<void> | undefined

  async function check(): Promise<void> {
    if ((await client.get(keys(prefix).storeLayout())) === storeLayoutVersion) return
    try {
      await migrate(client, { prefix, tables })
    } catch (error) {
      const message = `RedisAdapter: the records of release 0.1 under "${prefix}" could not be moved into the store, so it is not read yet (the next call tries again): ${error instanceof Error ? error.message : String(error)}`
      throw new Error(message, { cause: error })
    }
  }

  return () =>
    (ready ??= check().catch((error: unknown) => {
      ready = undefined
      throw error
    }))
}
