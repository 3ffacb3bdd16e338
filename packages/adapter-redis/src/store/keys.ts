/**
 * The keys of declared models, after the adapter's prefix (the Lua in `lua/model-rows.ts` builds
 * the same names):
 *
 * | key | type | holds |
 * |---|---|---|
 * | `model:<table>:<key>` | hash | a row: column → encoded value; expires with the row |
 * | `model-all:<table>` | sorted set | the keys of the model's rows (what a scan reads) |
 * | `model-unique:<table>:<columns>:<values>` | string | the key of the row that holds these unique values |
 * | `model-index:<table>:<columns>:<values>` | sorted set | the keys of the rows that hold these values |
 * | `model-schema:<name>` | string | the model's schema, for deletions that cascade to it |
 * | `model-referrers:<name>` | set | `<model>:<column>` of each column that refers to the model `name` (or `user`) |
 *
 * `<key>` is the primary key's encoded values, `<values>` a group's, each part escaped as in
 * `../keys.ts` (`%` and `:`) and joined by `:`; `<columns>` are joined by `,`. Each namespace ends
 * at its first colon and a table is a plain identifier, so no key of one kind equals another.
 * Sorted sets are scored by the row's expiry in milliseconds (0 for a model without `expires`).
 *
 * @module
 */
import { keyPart } from "../keys.js"

/** A primary key's or a group's encoded values as one key part. */
export const joinParts = (values: readonly string[]): string => values.map(keyPart).join(":")

export const modelKeys = {
  row: (table: string, key: string) => `model:${table}:${key}`,
  all: (table: string) => `model-all:${table}`,
  group: (table: string, unique: boolean, columns: readonly string[], values: readonly string[]) =>
    `model-${unique ? "unique" : "index"}:${table}:${columns.join(",")}:${joinParts(values)}`,
  schema: (name: string) => `model-schema:${name}`,
  referrers: (name: string) => `model-referrers:${name}`,
}
