/**
 * What the adapter needs of a dialect: nine statements and a transaction. Each dialect implements
 * them with its own Drizzle query builder (`pg.ts`, `mysql.ts`, `sqlite.ts`), so the adapter's
 * rules are written once (`../adapter.ts`).
 *
 * "One" methods address at most one row (by a primary or unique key); `remove` of several rows
 * reports only how many.
 *
 * @module
 */
import type { Column, SQL, Table } from "drizzle-orm"

/** A row as Drizzle returns it: column keys to values already mapped (dates, booleans, numbers). */
export type Row = Record<string, unknown>

export interface Store {
  /** Inserts `values`; resolves with the stored row, which `key` selects. */
  insert(table: Table, values: Row, key: SQL): Promise<Row>
  find(table: Table, where: SQL): Promise<Row | null>
  /** The rows `where` selects; every row of the table without it. */
  findAll(table: Table, where?: SQL): Promise<Row[]>
  /** Sets `values` on the row `where` selects; resolves with it updated, or null when there is none. */
  updateOne(table: Table, values: Row, where: SQL): Promise<Row | null>
  /**
   * Deletes the row `where` selects; resolves with it, or null when there was none. Of concurrent
   * calls for one row, exactly one gets it.
   */
  removeOne(table: Table, where: SQL): Promise<Row | null>
  /**
   * Inserts `values`, or, when a row with the same primary key `target` exists, sets `set` on that
   * row instead, in one statement (so that concurrent calls each take effect on the row the one
   * before left). Resolves with the row as it is after the statement, which `key` selects.
   */
  upsert(table: Table, values: Row, target: Column, set: Row, key: SQL): Promise<Row>
  /** Inserts every row of `rows` (at least one) in one statement. */
  insertMany(table: Table, rows: Row[]): Promise<void>
  /** How many rows `where` selects. */
  count(table: Table, where: SQL): Promise<number>
  /**
   * Deletes the rows `where` selects; resolves with how many there were. Of concurrent calls for
   * one row, exactly one counts it.
   */
  remove(table: Table, where: SQL): Promise<number>
  /**
   * Runs `fn` with a store bound to one transaction: committed when `fn` resolves, rolled back
   * when it throws. Inside a transaction, joins it.
   */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T>
}
