/**
 * The generic store's way into mysql2, through the adapter's own statement runner (`./connection.ts`:
 * dates as UTC text, plain object rows whatever the pool's settings): statements on the pool, or
 * on one connection inside a transaction, where nested transactions join the one open.
 *
 * @module
 */
import type { Row, SqlRunner } from "@sesame/sql-common"
import type { Pool, PoolConnection, ResultSetHeader } from "mysql2/promise"
import { inTransaction, rows } from "./connection.js"

/** A runner on `pool`, or on `connection`, a transaction's (or a migration's) connection. */
export function mysqlRunner(pool: Pool, connection?: PoolConnection): SqlRunner {
  const runner: SqlRunner = {
    async run(sql, params) {
      // mysql2 answers a statement that returns rows with their array, and any other (which `rows`,
      // typed for reads, does not expect) with a result header.
      const result = (await rows(connection ?? pool, sql, [...params])) as Row[] | ResultSetHeader
      return Array.isArray(result) ? { rows: result, affected: result.length } : { rows: [], affected: result.affectedRows }
    },
    atomically: (fn) => (connection ? fn(runner) : inTransaction(pool, (tx) => fn(mysqlRunner(pool, tx)))),
  }
  return runner
}
