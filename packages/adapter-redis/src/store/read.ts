/**
 * Reading rows with plain commands: the keys a source names (`plan.ts`), then the rows, 500 to a
 * pipeline, each decoded and checked against the conditions. A scan thus costs one round trip per
 * 500 rows of the model, and never blocks Redis for longer than one pipeline.
 *
 * Index entries left behind (a row gone, or expired by the app's clock before Redis dropped it)
 * are skipped, and handed to the script's `prune`, which checks them again and removes them.
 *
 * @module
 */
import type { ModelDeclaration, StoredRow } from "@sesame/core/adapters"
import type { Redis } from "ioredis"
import { decodeRow, type Hash } from "./encode.js"
import { modelKeys } from "./keys.js"
import type { Layout } from "./layout.js"
import type { Source } from "./plan.js"
import type { RunModelScript } from "./script.js"
import { matches, type Conditions } from "@sesame/core/adapters"

/** A row found: its key (encoded primary key), its hash as read, and its values. */
export interface Found {
  key: string
  hash: Hash
  row: StoredRow
}

export interface SelectOptions {
  /** Leaves out expired rows (every operation but `delete`). */
  live: boolean
  /** Stops after this many rows. */
  limit?: number
}

const chunk = 500

export function expired(model: ModelDeclaration, row: StoredRow, now: number): boolean {
  return model.expires !== undefined && (row[model.expires] as Date).getTime() <= now
}

/** `prefix`: the adapter's prefix, without the client's `keyPrefix`, which ioredis adds itself. */
export function rowReader(client: Redis, prefix: string, run: RunModelScript) {
  /** The row keys a source names, each with the sorted set it came from (for pruning). */
  async function candidates(layout: Layout, source: Source, live: boolean, now: number): Promise<{ key: string; from?: string }[]> {
    if (source.kind === "rows") return source.keys.map((key) => ({ key }))
    if (source.keys.length === 0) return []
    if (source.kind === "claims") {
      const keys = await client.mget(source.keys.map((key) => prefix + key))
      return [...new Set(keys.filter((key) => key !== null))].map((key) => ({ key }))
    }
    const pipeline = client.pipeline()
    for (const set of source.keys) {
      // Scores are expiries: a live read skips the entries of expired rows.
      if (live && layout.model.expires !== undefined) pipeline.zrangebyscore(prefix + set, `(${now}`, "+inf")
      else pipeline.zrange(prefix + set, "0", "-1")
    }
    const seen = new Map<string, string>()
    for (const [index, [error, keys]] of (await pipeline.exec())!.entries()) {
      if (error) throw error
      for (const key of keys as string[]) if (!seen.has(key)) seen.set(key, source.keys[index]!)
    }
    return [...seen].map(([key, from]) => ({ key, from }))
  }

  /** The rows of the source that meet the conditions. */
  async function select(layout: Layout, source: Source, conditions: Conditions, options: SelectOptions): Promise<Found[]> {
    const { model, table } = layout
    const now = Date.now()
    const found: Found[] = []
    const stale: [string, string][] = []
    const keys = await candidates(layout, source, options.live, now)
    for (let start = 0; start < keys.length && found.length < (options.limit ?? Infinity); start += chunk) {
      const batch = keys.slice(start, start + chunk)
      const pipeline = client.pipeline()
      for (const { key } of batch) pipeline.hgetall(prefix + modelKeys.row(table, key))
      const hashes = (await pipeline.exec())!
      for (const [index, { key, from }] of batch.entries()) {
        const [error, reply] = hashes[index]!
        if (error) throw error
        const hash = reply as Hash
        const row = Object.keys(hash).length === 0 ? null : decodeRow(model, hash)
        if (row === null || (options.live && expired(model, row, now))) {
          if (from) stale.push([from, key])
          continue
        }
        if (matches(row, conditions)) found.push({ key, hash, row })
        if (found.length === options.limit) break
      }
    }
    if (stale.length > 0) await run(layout, "prune", { entries: stale }, now)
    return found
  }

  return { select }
}
