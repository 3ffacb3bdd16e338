/**
 * Conditions and order applied in JavaScript to rows as the store returns them: the memory store
 * keeps its rows so, and the Redis store narrows rows down by its keys and decides the rest here.
 * One set of rules for both: dates compare by their milliseconds, `null` equals only null, `ne`
 * holds for null when the value is not null, a comparison with null never holds; in an order,
 * null comes first. (The SQL store writes the same rules as SQL, `sql-common/src/store/where.ts`.)
 *
 * @module
 */
import { comparisonOf, type Comparison, type FieldDeclaration, type FindManyQuery, type ModelDeclaration, type StoredRow, type StoredValue, type Where } from "./model.js"

/** The declaration of `model`'s own field `name`; a `TypeError` when it has none. */
export function fieldOf(model: ModelDeclaration, name: string): FieldDeclaration {
  const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined
  if (!field) throw new TypeError(`Model "${model.name}" has no field "${name}".`)
  return field
}

/** A where's conditions, read once: field and comparison. */
export type Conditions = readonly (readonly [string, Comparison])[]

/** Reads a where; a `TypeError` for an unknown field or a `json` one (which cannot be compared). */
export function conditionsOf(model: ModelDeclaration, where: Where = {}): Conditions {
  return Object.entries(where).map(([name, condition]) => {
    if (fieldOf(model, name).type === "json") throw new TypeError(`Field "${name}" of model "${model.name}" holds JSON and cannot be compared.`)
    return [name, comparisonOf(condition)] as const
  })
}

/** A value as conditions and orders compare it. */
export function ordered(value: StoredValue | undefined): number | string | boolean | null {
  return value instanceof Date ? value.getTime() : ((value ?? null) as number | string | boolean | null)
}

function holds(value: number | string | boolean | null, c: Comparison): boolean {
  if (c.op === "in") return c.values.some((v) => ordered(v) === value)
  const other = ordered(c.value)
  if (c.op === "eq") return value === other
  if (c.op === "ne") return value !== other
  if (value === null || other === null) return false
  if (c.op === "lt") return value < other
  if (c.op === "lte") return value <= other
  if (c.op === "gt") return value > other
  return value >= other
}

/** Whether `row` meets every condition. */
export function matches(row: StoredRow, conditions: Conditions): boolean {
  return conditions.every(([name, c]) => holds(ordered(row[name]), c))
}

/** Sorts rows in place by `orderBy`; a `TypeError` for an unknown or `json` field. */
export function sortRows(model: ModelDeclaration, rows: StoredRow[], orderBy: NonNullable<FindManyQuery["orderBy"]>): void {
  for (const { field } of orderBy) {
    if (fieldOf(model, field).type === "json") throw new TypeError(`Field "${field}" of model "${model.name}" holds JSON and cannot be ordered by.`)
  }
  rows.sort((a, b) => {
    for (const { field, direction } of orderBy) {
      const [x, y] = [ordered(a[field]), ordered(b[field])]
      if (x === y) continue
      const less = x === null || (y !== null && x < y)
      return (less ? -1 : 1) * (direction === "desc" ? -1 : 1)
    }
    return 0
  })
}
