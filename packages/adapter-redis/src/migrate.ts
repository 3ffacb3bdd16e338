/**
 * Upgrading from 0.1: that release kept Sesame's own data in keys of its own, which this one no
 * longer reads; the core now reads it from the store of declared models (`builtInModels`).
 * `migrate` moves it there. The layout it reads, under the adapter's prefix:
 *
 * | key | type | holds | becomes a row of |
 * |---|---|---|---|
 * | `password:<userId>` | hash | `userId`, `hash`, `updatedAt` | `passwords` |
 * | `counter:<key>` | hash | `key`, `count`, `expires`; the key expires at `expires` | `counters` |
 * | `two-factor:<userId>` | hash | `userId`, `method`, `secret`, `enabledAt`, `devicesRevokedAt` | `twoFactors` |
 * | `recovery-codes:<userId>` | set | the hashes of the user's unused recovery codes | `recoveryCodes`, one a member |
 * | `signing-key:<id>` | hash | `id`, `algorithm`, `publicKey`, `privateKey`, `createdAt` | `signingKeys` |
 * | `signing-keys` | set | the ids of the signing keys | (removed with them) |
 *
 * A hash holds its model's fields under the fields' names, encoded as the store encodes them
 * (dates in milliseconds since the epoch, integers in decimal, a null an absent field), so it is
 * read as a row of its model: the built-in models keep no field under a column of another name.
 *
 * Each record moves in one call of the store's script (`adopt` in `lua/models.ts`), which Redis
 * runs with nothing in between: the record leaves its old key and becomes a row, with the row's
 * index entries, its place among the user's referrers (so `deleteUser` takes it) and its expiry,
 * as a create through the store makes them. So a record is never in both layouts, nor in neither,
 * and of several `migrate`s running at once (each reads the keys by `SCAN`), one moves it and the
 * others find it gone. A record the store cannot take is only removed: the store already holds a
 * row with its key (written since the upgrade: the newer one stays), its user no longer exists,
 * or it is a counter that has expired. Counters are moved, not dropped, so that a throttle that
 * holds an address back keeps holding it across the upgrade.
 *
 * A run that gets through every key sets `store-layout` (under the prefix) to `1`: every record
 * that was there when it started has then been moved, by it or by a run beside it. `RedisAdapter`
 * reads that marker before its first call and runs `migrate` itself while it is missing (see
 * `ready.ts`), so it never serves a read of the store before the move. A run that fails sets
 * nothing; a new, empty database gets the marker from a run that finds nothing.
 *
 * @module
 */
import { builtInModels, columnOf, type StoredRow } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { keys, storeLayoutVersion } from "./keys.js"
import { checkOptions, type RedisAdapterOptions } from "./options.js"
import { completeRow, decodeRow, encodeRow, type Hash } from "./store/encode.js"
import { joinParts } from "./store/keys.js"
import { layoutOf, type Layout } from "./store/layout.js"
import { modelScriptRunner } from "./store/script.js"

/** The built-in models `migrate` fills, by their names in `builtInModels`. */
export type MigratedModel = keyof typeof builtInModels

/** What a run of `migrate` did, by model. */
export interface MigrationReport {
  /** Records moved into the store. */
  moved: Record<MigratedModel, number>
  /**
   * Records removed without moving them: the store already held a row with their key (written
   * since the upgrade, which stays), their user no longer exists, or (counters) they had expired.
   */
  dropped: Record<MigratedModel, number>
}

/** Where the records are: the adapter's `prefix` and `tables`, as given to `RedisAdapter`. */
export type MigrateOptions = Pick<RedisAdapterOptions, "prefix" | "tables">

/** The previous release's hashes: the start of their keys, and the set that listed them by the rest. */
const hashRecords: readonly { model: MigratedModel; namespace: string; listedIn?: string }[] = [
  { model: "passwords", namespace: "password:" },
  { model: "counters", namespace: "counter:" },
  { model: "twoFactors", namespace: "two-factor:" },
  { model: "signingKeys", namespace: "signing-key:", listedIn: "signing-keys" },
]

/** The previous release's sets of a user's recovery codes. */
const recoveryCodeSets = "recovery-codes:"

/** Keys a `SCAN` step asks for: a hint to Redis, which may return more or fewer. */
const scanCount = 1000

/** Reads of a hash that another client keeps changing before `migrate` gives up on it. */
const maxAttempts = 10

type Outcome = "moved" | "dropped" | "changed"

const perModel = (): Record<MigratedModel, number> => ({ passwords: 0, counters: 0, twoFactors: 0, recoveryCodes: 0, signingKeys: 0 })

/**
 * Moves every record that release 0.1 kept Sesame's own data in (password hashes, counters,
 * second factors, recovery codes, signing keys) into the store, where this release reads it, and
 * deletes the old keys; then marks the prefix as moved (`store-layout`). `RedisAdapter` runs it at
 * its first call on a prefix not marked yet, so calling it is not required; it may be called ahead
 * (as a deploy step), and again after the last instance of 0.1 has stopped, to move what that one
 * wrote meanwhile. It is safe to run again (a second run moves nothing) and from several instances
 * at once.
 *
 * @example
 * ```ts
 * import { migrate } from "@sesame/adapter-redis"
 * const report = await migrate(redis, { prefix: "myapp:auth:" })
 * console.log(report.moved) // { passwords: 1200, counters: 3, twoFactors: 80, recoveryCodes: 790, signingKeys: 2 }
 * ```
 */
export async function migrate(client: Redis, options: MigrateOptions = {}): Promise<MigrationReport> {
  const { prefix, tables } = checkOptions(options, "migrate")
  // As in `RedisAdapter`: ioredis puts the client's `keyPrefix` before the keys of commands, but
  // neither in a `SCAN` pattern nor in the keys a script builds.
  const keyPrefix = client.options.keyPrefix ?? ""
  const run = modelScriptRunner(client, keyPrefix + prefix)
  const report: MigrationReport = { moved: perModel(), dropped: perModel() }

  /** Moves one record (`from`: where it is, as `adopt` takes it) as `row`. */
  async function adopt(layout: Layout, key: string, row: StoredRow, from: object): Promise<Outcome> {
    let hash: Hash
    try {
      hash = encodeRow(layout.model, completeRow(layout.model, row))
    } catch (error) {
      throw new TypeError(`migrate: "${key}" does not hold a record of the previous release: ${(error as Error).message}`, { cause: error })
    }
    const pk = joinParts(layout.primaryKey.map((name) => hash[columnOf(layout.model, name)]!))
    return (await run(layout, "adopt", { pk, row: hash, from: key.slice(prefix.length), ...from }, Date.now())) as Outcome
  }

  const count = (model: MigratedModel, outcome: Outcome) => {
    if (outcome !== "changed") report[outcome][model]++
  }
  const layoutOfModel = (model: MigratedModel) => layoutOf(builtInModels[model], tables[model] ?? builtInModels[model].table)
  const hashes = hashRecords.map((record) => ({ ...record, layout: layoutOfModel(record.model) }))
  const codes = layoutOfModel("recoveryCodes")

  /** Moves the record at `key` (after the client's `keyPrefix`), if it is one of the previous release's. */
  async function move(key: string): Promise<void> {
    const name = key.slice(prefix.length)
    if (name.startsWith(recoveryCodeSets)) {
      const userId = name.slice(recoveryCodeSets.length)
      // A member another run took first is `changed`: gone, and counted there.
      for (const hash of await client.smembers(key)) count("recoveryCodes", await adopt(codes, key, { userId, hash }, { member: hash }))
      return
    }
    const record = hashes.find((r) => name.startsWith(r.namespace))
    if (!record) return
    const unlist = record.listedIn && { unlist: [record.listedIn, name.slice(record.namespace.length)] }
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const seen = await client.hgetall(key)
      // Moved by another run since the scan found it.
      if (Object.keys(seen).length === 0) return
      const outcome = await adopt(record.layout, key, decodeRow(record.layout.model, seen), { seen, ...unlist })
      count(record.model, outcome)
      if (outcome !== "changed") return
    }
    throw new Error(`migrate: "${key}" kept changing while it was moved; is a release before this one still running?`)
  }

  // One pass over the keys under the prefix, a batch at a time, each batch's records moved at once.
  const pattern = `${(keyPrefix + prefix).replace(/[*?[\]\\]/g, "\\$&")}*`
  let cursor = "0"
  do {
    const [next, found] = await client.scan(cursor, "MATCH", pattern, "COUNT", scanCount)
    await Promise.all(found.map((key) => move(key.slice(keyPrefix.length))))
    cursor = next
  } while (cursor !== "0")
  // Every record there at the start is moved (a key another run moved is gone from the scan only
  // once that run has moved it), so the store's layout is complete.
  await client.set(keys(prefix).storeLayout(), storeLayoutVersion)
  return report
}
