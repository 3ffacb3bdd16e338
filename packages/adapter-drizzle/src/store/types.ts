/**
 * What the adapter's methods need of a dialect: seven statements. Each dialect implements them with
 * its own Drizzle query builder (`pg.ts`, `mysql.ts`, `sqlite.ts`), so the adapter's rules are
 * written once (`../adapter.ts`); transactions are the session's (`session.ts`).
 *
 * "One" methods address at most one row (by a primary or unique key); `remove` of several rows
 * reports only how many.
 *
 * @module
 */
import type { SQL, Table } from "drizzle-orm"

/** A row as Drizzle returns it: column keys to values already mapped (dates, booleans, numbers). */
export type Row = Record<string, unknown>

export interface Store {
  /** Inserts `values`; resolves with the stored row, which `key` selects. */
  insert(table: Table, values: Row, key: SQL): Promise<Row>
  find(table: Table, where: SQL): Promise<Row | null>
  /** The rows `where` selects. */
  findAll(table: Table, where: SQL): Promise<Row[]>
  /** The first `limit` rows `where` selects (every row when undefined) in the order of `orderBy` (`asc(column)`, …). */
  page(table: Table, where: SQL | undefined, orderBy: readonly SQL[], limit: number): Promise<Row[]>
  /** Sets `values` on the row `where` selects; resolves with it updated, or null when there is none. */
  updateOne(table: Table, values: Row, where: SQL): Promise<Row | null>
  /**
   * Deletes the row `where` selects; resolves with it, or null when there was none. Of concurrent
   * calls for one row, exactly one gets it.
   */
  removeOne(table: Table, where: SQL): Promise<Row | null>
  /**
   * Deletes the rows `where` selects; resolves with how many there were. Of concurrent calls for
   * one row, exactly one counts it.
   */
  remove(table: Table, where: SQL): Promise<number>
}
