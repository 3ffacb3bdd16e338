/**
 * Where a query's rows are looked for. Conditions that pin every field of the primary key, of a
 * unique or of an index to a value (equality) or a few (`in`) name the rows, the claims or the
 * index sets to read; any other query reads the model's set of all its rows (`model-all:<table>`)
 * and every row in it: a scan, as long as the model is large. The rows found are then checked
 * against every condition (`matches` of `@sesame/core/adapters`), so the choice changes the cost, never the answer.
 *
 * @module
 */
import { modelKeys, joinParts } from "./keys.js"
import { lookupPart } from "./encode.js"
import type { Layout } from "./layout.js"
import type { Conditions } from "@sesame/core/adapters"

/** Row keys (encoded primary keys), keys of unique claims, or keys of sorted sets of row keys. */
export interface Source {
  kind: "rows" | "claims" | "sets"
  keys: string[]
}

/** Beyond this many lookups (a product of `in` lists), a group is not worth using. */
const maxLookups = 100

/** The encoded values a condition pins the field to, or undefined when it pins none. */
function pinned(conditions: Conditions, name: string): string[] | undefined {
  const c = conditions.find(([field]) => field === name)?.[1]
  if (c?.op === "in") return c.values.map(lookupPart)
  if (c?.op === "eq" && c.value !== null && (typeof c.value !== "object" || c.value instanceof Date)) return [lookupPart(c.value)]
  return undefined
}

/** Every combination of the fields' pinned values, or undefined when a field is not pinned. */
function combinations(conditions: Conditions, fields: readonly string[]): string[][] | undefined {
  let out: string[][] = [[]]
  for (const name of fields) {
    const values = pinned(conditions, name)
    if (!values) return undefined
    out = out.flatMap((prefix) => values.map((value) => [...prefix, value]))
    if (out.length > maxLookups) return undefined
  }
  return out
}

/** The narrowest source the conditions allow: the primary key, a unique, an index, or all rows. */
export function sourceOf(layout: Layout, conditions: Conditions): Source {
  const keys = combinations(conditions, layout.primaryKey)
  if (keys) return { kind: "rows", keys: keys.map(joinParts) }
  // A unique names one row per lookup; of indexes, one over more fields narrows more.
  const ranked = [...layout.groups].sort((a, b) => Number(b.unique) - Number(a.unique) || b.fields.length - a.fields.length)
  for (const group of ranked) {
    const values = combinations(conditions, group.fields)
    if (values) {
      return {
        kind: group.unique ? "claims" : "sets",
        keys: values.map((v) => modelKeys.group(layout.table, group.unique, group.columns, v)),
      }
    }
  }
  return { kind: "sets", keys: [modelKeys.all(layout.table)] }
}
