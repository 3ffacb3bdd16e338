/**
 * How the adapter runs its statements, whatever built them (Kysely's query builder, or
 * `@sesame/sql-common`'s partial updates and store statements as compiled queries):
 *
 * - Without the app's Kysely plugins (`withoutPlugins()`): a `CamelCasePlugin` would turn the
 *   schema's `emailVerified` into `email_verified`, and plugins never see a compiled query anyway.
 *   To keep the tables in a PostgreSQL schema, set the connection's `search_path`.
 * - On SQLite, with foreign keys on, switched on before the first statement (and so before the
 *   first transaction, inside which the pragma does nothing): integrity rests on them (a user's
 *   deletion cascades, a session for an unknown user is refused), and SQLite's default is off
 *   (better-sqlite3 builds with them on, but another driver, or the app, may not).
 * - A failure rejects with the driver's error. mysql2's carries the statement with its values
 *   filled in (`sql`): OAuth tokens, emails, token hashes. Sesame logs an adapter's errors with
 *   their cause, so that becomes the statement with placeholders.
 *
 * @module
 */
import type { Row } from "@sesame/sql-common"
import { sql, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from "kysely"
import type { Dialect } from "./dialect.js"
import { transaction, type Db } from "./transaction.js"

/** A statement: a query builder, or a compiled query. */
export type Statement = Compilable<unknown> | CompiledQuery<unknown>

export interface Runner {
  /** The database to build statements on (the instance, or the open transaction). */
  db: Db
  dialect: Dialect
  /** Whether statements run in a transaction the runner is bound to. */
  inTransaction: boolean
  /** The rows a statement returns. */
  rows(statement: Statement): Promise<Row[]>
  /** How many rows a statement inserted, updated or deleted. */
  affected(statement: Statement): Promise<number>
  /** What a statement returns: its rows, and the count of rows it changed when it is a write. */
  result(statement: Statement): Promise<QueryResult<unknown>>
  /**
   * Runs `fn` with a runner bound to one transaction: committed when `fn` resolves, rolled back
   * when it throws. Inside a transaction, joins it.
   */
  atomically<T>(fn: (tx: Runner) => Promise<T>): Promise<T>
}

/** A runner on the app's Kysely instance. */
export function runner<DB>(app: Kysely<DB>, dialect: Dialect): Runner {
  const db = app.withoutPlugins() as unknown as Db
  let setup: Promise<void> | undefined
  const ready =
    dialect.name === "sqlite"
      ? () =>
          (setup ??= sql`PRAGMA foreign_keys = ON`.execute(db).then(
            () => {},
            (error: unknown) => {
              // Reported to this caller; the next statement tries again rather than failing forever.
              setup = undefined
              throw error
            },
          ))
      : () => Promise.resolve()
  return bound(db, dialect, ready, false)
}

function bound(db: Db, dialect: Dialect, ready: () => Promise<void>, inTransaction: boolean): Runner {
  const execute = async (statement: Statement): Promise<QueryResult<unknown>> => {
    if (!inTransaction) await ready()
    const compiled = "compile" in statement ? statement.compile() : statement
    try {
      return await db.executeQuery(compiled)
    } catch (error) {
      throw withoutValues(error, compiled)
    }
  }
  const self: Runner = {
    db,
    dialect,
    inTransaction,
    rows: async (statement) => (await execute(statement)).rows as Row[],
    affected: async (statement) => Number((await execute(statement)).numAffectedRows ?? 0n),
    result: execute,
    async atomically(fn) {
      if (inTransaction) return fn(self)
      await ready()
      return transaction(db, dialect, (tx) => fn(bound(tx, dialect, ready, true)))
    },
  }
  return self
}

/** `error`, with the statement text mysql2 attaches replaced by the one with placeholders. */
function withoutValues(error: unknown, compiled: CompiledQuery<unknown>): unknown {
  if (error !== null && typeof error === "object" && "sql" in error) Object.assign(error, { sql: compiled.sql })
  return error
}
