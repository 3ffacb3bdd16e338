/**
 * The pieces of an upsert, which the generic store's `increment` is built of: an `INSERT` that,
 * meeting a stored row with the same key, updates that row instead. One statement is what makes it
 * safe under concurrency: the database locks the row between concurrent upserts, so each sees the
 * value the other left, where a read followed by a write would lose one.
 *
 * PostgreSQL and SQLite write it `ON CONFLICT (key) DO UPDATE`, with the incoming row as
 * `excluded`; MySQL and MariaDB `ON DUPLICATE KEY UPDATE`, with the incoming row as `VALUES(col)`.
 * In all three the table's name, qualifying a column, names the stored row.
 *
 * @module
 */
import type { UpdateDialect } from "./update.js"

/** How one SQL dialect writes an upsert: its quoting and `RETURNING` (as for an `UPDATE`), and its clause. */
export interface UpsertDialect extends Pick<UpdateDialect, "quote" | "returning"> {
  /** `on-conflict` (PostgreSQL, SQLite) or `on-duplicate-key` (MySQL, MariaDB). */
  upsert: "on-conflict" | "on-duplicate-key"
}

/** A statement and its parameters, in order. */
export interface Statement {
  sql: string
  params: unknown[]
}

/** The pieces of an upsert on `table`, whose key is the column `key` (or the columns, in order). */
export function upsertParts(dialect: UpsertDialect, table: string, key: string | readonly string[]) {
  const { quote } = dialect
  const onConflict = dialect.upsert === "on-conflict"
  const keys = typeof key === "string" ? [key] : key
  return {
    /** `ON CONFLICT … DO UPDATE SET` or `ON DUPLICATE KEY UPDATE`. */
    update: onConflict ? `ON CONFLICT (${keys.map(quote).join(", ")}) DO UPDATE SET` : "ON DUPLICATE KEY UPDATE",
    /** The stored row's value of `column`. */
    stored: (column: string) => `${quote(table)}.${quote(column)}`,
    /** The value of `column` that the INSERT brought. */
    incoming: (column: string) => (onConflict ? `excluded.${quote(column)}` : `VALUES(${quote(column)})`),
    returning: dialect.returning ? " RETURNING *" : "",
  }
}
