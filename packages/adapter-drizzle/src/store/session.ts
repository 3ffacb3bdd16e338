/**
 * The adapter's statements (a `Store`, see `types.ts`) and the declared models' (a `SqlRunner`, see
 * `sql-runner.ts`) on one Drizzle database, or in one open transaction of it. `transaction` opens
 * one for both, or joins the open one, so that the writes of `adapter.transaction(fn)` and of its
 * `store` commit or roll back together; the runner's `atomically` is the same transaction.
 *
 * - PostgreSQL and MySQL: Drizzle's `db.transaction`, on a connection of its own from the pool.
 * - SQLite: `BEGIN IMMEDIATE` on the one connection (`sqliteTransaction`), with every other
 *   statement of the database object held back by the gate meanwhile; the models' statements wait
 *   at the same gate.
 *
 * @module
 */
import { Gate, type SqlDialect, type SqlRunner } from "@sesame/sql-common"
import { guarded } from "./guarded.js"
import { mysqlStore, type MySqlDb } from "./mysql.js"
import { pgStore, type PgDb } from "./pg.js"
import { mysqlRun, pgRun, sqliteRun, unwrapped, type Run, type SqliteClient } from "./sql-runner.js"
import { sqliteStore, sqliteTransaction, type SqliteDb } from "./sqlite.js"
import type { Store } from "./types.js"

export interface Session {
  dialect: SqlDialect
  store: Store
  runner: SqlRunner
  /**
   * Runs `fn` with a session bound to one transaction: committed when `fn` resolves, rolled back
   * when it throws. Inside a transaction, joins it.
   */
  transaction<T>(fn: (tx: Session) => Promise<T>): Promise<T>
}

type Open = <T>(fn: (tx: Session) => Promise<T>) => Promise<T>

/** A session whose `transaction` opens one with `open`, or, without it (in one already), joins. */
function session(dialect: SqlDialect, store: Store, run: Run, open: Open | undefined): Session {
  const self: Session = {
    dialect,
    store,
    runner: { run, atomically: (fn) => self.transaction((tx) => fn(tx.runner)) },
    transaction: (fn) => (open ? open(fn) : fn(self)),
  }
  return self
}

/** A session on a Drizzle PostgreSQL database, or (`inTransaction`) in its transaction `db`. */
export function pgSession(db: PgDb, inTransaction = false): Session {
  const open: Open = (fn) => unwrapped(db.transaction((tx) => fn(pgSession(tx, true))))
  return session("pg", guarded(pgStore(db)), pgRun(db), inTransaction ? undefined : open)
}

/** A session on a Drizzle MySQL database, or (`inTransaction`) in its transaction `db`. */
export function mysqlSession(db: MySqlDb, inTransaction = false): Session {
  const open: Open = (fn) => unwrapped(db.transaction((tx) => fn(mysqlSession(tx, true))))
  return session("mysql", guarded(mysqlStore(db)), mysqlRun(db), inTransaction ? undefined : open)
}

/**
 * A session on a Drizzle SQLite database on better-sqlite3, whose statements and transactions
 * take turns at `gate`; `inTransaction`, in the transaction open on it.
 */
export function sqliteSession(db: SqliteDb, gate = new Gate(), inTransaction = false): Session {
  const store = guarded(sqliteStore(db, gate, inTransaction))
  const client = (db as unknown as { $client: SqliteClient }).$client
  const run = sqliteRun(client, inTransaction ? async () => {} : () => gate.idle())
  // Alone at the gate; the session inside runs on the same connection, past the gate.
  const open: Open = (fn) => unwrapped(sqliteTransaction(db, gate, () => fn(sqliteSession(db, gate, true))))
  return session("sqlite", store, run, inTransaction ? undefined : open)
}
