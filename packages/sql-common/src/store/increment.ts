/**
 * `increment` as one upsert, on the pieces of `../upsert.ts`: insert the new row (the caller's
 * `create`, the key, `field` = `by`), or, meeting the stored row with that key, add `by` to its
 * field. When the model `expires`, a stored row past its expiry is replaced instead: each column
 * takes the incoming value when the stored row has expired, and keeps its own otherwise. The
 * database locks the row between concurrent upserts, so each increment counts.
 *
 * The fields of `set` (a sliding expiry: `set: { expires }`) take the incoming value on a live row
 * too. MySQL evaluates the assignments of `ON DUPLICATE KEY UPDATE` in order, each seeing those
 * before it; the others test the stored expiry, so the expiry column is assigned after them.
 *
 * @module
 */
import { columnOf, primaryKeyOf, type ModelDeclaration, type StoredRow } from "@sesame/core/adapters"
import { upsertParts, type Statement, type UpsertDialect } from "../upsert.js"
import { quote } from "./names.js"
import type { SqlDialect } from "./types.js"
import { Params } from "./where.js"

function upsertDialect(dialect: SqlDialect): UpsertDialect {
  return {
    quote: (name) => quote(dialect, name),
    returning: dialect !== "mysql",
    upsert: dialect === "mysql" ? "on-duplicate-key" : "on-conflict",
  }
}

/**
 * The upsert that adds `by` to `field` of the row keyed as `row` is, or stores `row` (complete:
 * every field, with `field` already `by`) in its place; the fields named in `set` take `row`'s
 * value either way. It returns the row where the dialect can.
 */
export function incrementSql(
  dialect: SqlDialect,
  model: ModelDeclaration,
  table: string,
  row: StoredRow,
  field: string,
  options: { by: number; set: readonly string[]; now: Date },
): Statement {
  const params = new Params(dialect)
  const names = Object.keys(model.fields)
  const q = (name: string) => quote(dialect, columnOf(model, name))
  const values = names.map((name) => params.field(model, name, row[name]))
  const key = primaryKeyOf(model)
  const { update, stored, incoming, returning } = upsertParts(
    upsertDialect(dialect),
    table,
    key.map((name) => columnOf(model, name)),
  )
  const { expires } = model
  const sum = () => `${stored(columnOf(model, field))} + ${params.field(model, field, options.by)}`
  const written = options.set.map((name) => `${q(name)} = ${incoming(columnOf(model, name))}`)
  if (expires === undefined) {
    return statement(`${q(field)} = ${sum()}`, ...written)
  }
  // Written left to right, as `?` placeholders take their parameters in order.
  const replaced = (name: string, otherwise: () => string) => {
    const test = `${stored(columnOf(model, expires))} <= ${params.field(model, expires, options.now)}`
    return `${q(name)} = CASE WHEN ${test} THEN ${incoming(columnOf(model, name))} ELSE ${otherwise()} END`
  }
  const kept = names.filter((name) => name !== field && !key.includes(name) && !options.set.includes(name))
  // The expiry last but for `set`'s columns, which read no expiry.
  const order = [...kept.filter((name) => name !== expires), ...kept.filter((name) => name === expires)]
  return statement(replaced(field, sum), ...order.map((name) => replaced(name, () => stored(columnOf(model, name)))), ...written)

  function statement(...assignments: string[]): Statement {
    return {
      sql: `INSERT INTO ${quote(dialect, table)} (${names.map(q).join(", ")}) VALUES (${values.join(", ")}) ${update} ${assignments.join(", ")}${returning}`,
      params: params.values,
    }
  }
}
