/**
 * The generic store's way into better-sqlite3. One connection serves every caller, and a
 * transaction spans the caller's `await`s, so the adapter's gate (`Gate` of `@sesame/sql-common`)
 * holds other statements back while one is open, for the store as for the adapter's own methods.
 *
 * @module
 */
import type Database from "better-sqlite3"
import type { Gate, Row, SqlRunner } from "@sesame/sql-common"

/** Runs `fn` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws. The caller keeps other statements out. */
export async function immediateTransaction<T>(db: Database.Database, fn: () => Promise<T>): Promise<T> {
  db.exec("BEGIN IMMEDIATE")
  try {
    const result = await fn()
    db.exec("COMMIT")
    return result
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw error
  }
}

/** A runner on `db` behind `gate`; without a gate, one bound to the transaction open on `db`. */
export function sqliteRunner(db: Database.Database, gate?: Gate): SqlRunner {
  const runner: SqlRunner = {
    async run(sql, params) {
      await gate?.idle()
      const statement = db.prepare(sql)
      if (!statement.reader) return { rows: [], affected: statement.run(...params).changes }
      const rows = statement.all(...params) as Row[]
      return { rows, affected: rows.length }
    },
    atomically: (fn) => (gate ? gate.exclusive(() => immediateTransaction(db, () => fn(sqliteRunner(db)))) : fn(runner)),
  }
  return runner
}
