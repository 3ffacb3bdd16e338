/**
 * Transactions, per dialect. On PostgreSQL and MySQL they are Kysely's (`db.transaction()`): a
 * pooled connection of their own between BEGIN and COMMIT, rolled back when the work throws.
 *
 * On SQLite the adapter opens the transaction itself, on Kysely's single connection
 * (`db.connection()`), with `BEGIN IMMEDIATE`: Kysely's `BEGIN` would take the write lock only at
 * the first write, and a transaction that reads first (a `store.transaction` whose work begins
 * with a `findOne`, say) would then fail at once with `SQLITE_BUSY` if another process wrote in
 * between, where an immediate one waits its turn (`busy_timeout`). While the connection is held,
 * Kysely's SQLite driver makes every other statement on the instance wait, so none slips into the
 * transaction (or is rolled back with it).
 *
 * @module
 */
import type { Row } from "@sesame/sql-common"
import { sql, type Kysely } from "kysely"
import type { Dialect } from "./dialect.js"

/** The database as the adapter sees it: any table by name, each column of unknown type. */
export type Db = Kysely<Record<string, Row>>

/** Runs `fn` in a transaction on `db`: committed when it resolves, rolled back when it throws. */
export function transaction<T>(db: Db, dialect: Dialect, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (dialect.name !== "sqlite") return db.transaction().execute(fn)
  return db.connection().execute(async (connection) => {
    await sql`BEGIN IMMEDIATE`.execute(connection)
    try {
      const result = await fn(connection)
      await sql`COMMIT`.execute(connection)
      return result
    } catch (error) {
      // After some failures (a full disk, an I/O error) SQLite has rolled back already and
      // ROLLBACK fails with "no transaction is active"; the first error is the one to report.
      await sql`ROLLBACK`.execute(connection).catch(() => {})
      throw error
    }
  })
}
