/**
 * Conditions to SQL. Values are always parameters, numbered in the order they appear in the text
 * (`?` placeholders have no numbers, so the text is written left to right as parameters are
 * added). The semantics are the memory store's: `ne` matches null (a null is not the value),
 * `lt`/`lte`/`gt`/`gte` never match null, `in: []` matches nothing, and a `json` field cannot be
 * compared.
 *
 * @module
 */
import { columnOf, comparisonOf, type ModelDeclaration, type Where } from "@sesame/core/adapters"
import { quote } from "./names.js"
import type { SqlDialect } from "./types.js"
import { encode } from "./values.js"

/** A statement's parameters, collected as its text is written. */
export class Params {
  readonly values: unknown[] = []
  constructor(private readonly dialect: SqlDialect) {}

  /** Adds `value` (already encoded) and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value)
    return this.dialect === "pg" ? `$${this.values.length}` : "?"
  }

  /** Encodes field `name`'s value for the dialect, adds it and returns its placeholder. */
  field(model: ModelDeclaration, name: string, value: unknown): string {
    return this.add(encode(this.dialect, model, name, value))
  }
}

const operators = { lt: "<", lte: "<=", gt: ">", gte: ">=" } as const

/** The SQL of one condition on field `name`. */
function conditionSql(dialect: SqlDialect, model: ModelDeclaration, name: string, condition: unknown, params: Params): string {
  const column = quote(dialect, columnOf(model, name))
  const field = model.fields[name]!
  if (field.type === "json") throw new TypeError(`Model "${model.name}": field "${name}" holds JSON and cannot be compared.`)
  if (condition === undefined) throw new TypeError(`Model "${model.name}": the condition on "${name}" is undefined.`)
  const c = comparisonOf(condition as Where[string])
  switch (c.op) {
    case "eq":
      return c.value === null ? `${column} IS NULL` : `${column} = ${params.field(model, name, c.value)}`
    case "in":
      return c.values.length === 0 ? "1 = 0" : `${column} IN (${c.values.map((v) => params.field(model, name, v)).join(", ")})`
    case "ne":
      if (c.value === null) return `${column} IS NOT NULL`
      return field.optional ? `(${column} <> ${params.field(model, name, c.value)} OR ${column} IS NULL)` : `${column} <> ${params.field(model, name, c.value)}`
    default:
      return c.value === null ? "1 = 0" : `${column} ${operators[c.op]} ${params.field(model, name, c.value)}`
  }
}

/**
 * ` WHERE …` for `where` (empty when there is nothing to test). With `now`, rows of a model that
 * `expires` must not have expired by then.
 */
export function whereSql(dialect: SqlDialect, model: ModelDeclaration, where: Where, params: Params, now?: Date): string {
  const conditions = Object.entries(where).map(([name, condition]) => conditionSql(dialect, model, name, condition, params))
  if (now && model.expires !== undefined) conditions.push(`${quote(dialect, columnOf(model, model.expires))} > ${params.field(model, model.expires, now)}`)
  return conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`
}
