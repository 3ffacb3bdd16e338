/**
 * The generic store's way into node-postgres: statements on the pool, or on one client inside a
 * transaction (`./transaction.ts`), where nested transactions join the one open.
 *
 * @module
 */
import type { SqlRunner } from "@sesame/sql-common"
import type { Pool, PoolClient } from "pg"
import { inTransaction } from "./transaction.js"

/** A runner on `pool`, or on `client`, a transaction's connection. */
export function pgRunner(pool: Pool, client?: PoolClient): SqlRunner {
  const runner: SqlRunner = {
    async run(sql, params) {
      const result = await (client ?? pool).query(sql, [...params])
      return { rows: result.rows, affected: result.rowCount ?? 0 }
    },
    atomically: (fn) => (client ? fn(runner) : inTransaction(pool, (tx) => fn(pgRunner(pool, tx)))),
  }
  return runner
}
