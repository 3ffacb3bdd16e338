/**
 * The partial `UPDATE` that `updateUser`, `updateAccount` and `updateSession` run: only the columns
 * the caller passed are set, so a field left out keeps its stored value, and a call that sets
 * nothing runs no statement. Column names come from the fixed lists in `rows.ts` and table names
 * from `tableNames`, never from the caller's object, so interpolating them is safe; values are
 * always parameters.
 *
 * @module
 */

/** How one SQL dialect writes that statement. */
export interface UpdateDialect {
  /** An identifier, quoted: `"name"` or `` `name` ``. */
  quote(identifier: string): string
  /** The placeholder of the statement's `position`-th parameter (from 1): `?` or `$1`. */
  placeholder(position: number): string
  /** Whether the statement ends with `RETURNING *` (PostgreSQL, SQLite); MySQL reads the row back. */
  returning: boolean
  /** A value as the driver is to receive it (SQLite stores dates as milliseconds). Default: as it is. */
  toParameter?(value: unknown): unknown
}

/** A statement and the parameters of its `SET` clause. */
export interface UpdateStatement {
  sql: string
  /** The `SET` values, in order; the caller appends the `where` values after them. */
  params: unknown[]
}

/**
 * `UPDATE table SET …` for the `columns` that `values` has (not undefined), for the row whose `where`
 * columns equal the parameters that follow the `SET` ones; null when there is nothing to set.
 */
export function updateSql(
  dialect: UpdateDialect,
  table: string,
  columns: readonly string[],
  values: Record<string, unknown>,
  where: readonly string[],
): UpdateStatement | null {
  const set = columns.filter((c) => values[c] !== undefined)
  if (set.length === 0) return null
  const { quote, placeholder } = dialect
  const assignments = set.map((c, i) => `${quote(c)} = ${placeholder(i + 1)}`).join(", ")
  const conditions = where.map((c, i) => `${quote(c)} = ${placeholder(set.length + i + 1)}`).join(" AND ")
  const toParameter = dialect.toParameter ?? ((value: unknown) => value)
  return {
    sql: `UPDATE ${quote(table)} SET ${assignments} WHERE ${conditions}${dialect.returning ? " RETURNING *" : ""}`,
    params: set.map((c) => toParameter(values[c])),
  }
}
