/**
 * The generic store of declared models (`adapter.store`) on Kysely: `@sesame/sql-common`'s SQL
 * store, whose statements run as compiled queries through the adapter's {@link Runner}. So they
 * run as the adapter's do: without the app's Kysely plugins, on SQLite with foreign keys on (a
 * user's deletion cascades to the rows that refer to them), and a failure rejects with the
 * driver's error (which the store's conflict check reads), mysql2's with the statement's
 * placeholders in place of its values. Transactions are the runner's: the store of an adapter
 * made inside one (the adapter's `transaction`) joins it.
 *
 * @module
 */
import type { Store } from "@sesame/core/adapters"
import { sqlStore, type Row, type SqlDialect, type SqlRunner, type TableNames } from "@sesame/sql-common"
import { CompiledQuery, type QueryResult } from "kysely"
import type { DialectName } from "./dialect.js"
import type { Runner } from "./runner.js"

/** The name `@sesame/sql-common` gives each dialect. */
export const sqlDialects: Readonly<Record<DialectName, SqlDialect>> = { postgres: "pg", mysql: "mysql", sqlite: "sqlite" }

/** A raw statement with its positional parameters, as Kysely runs it. */
export const rawQuery = (sql: string, params: readonly unknown[]) => CompiledQuery.raw(sql, [...params])

/**
 * A Kysely result as the SQL store reads it. A statement that returns rows counts them: Kysely
 * reports no count for a read, nor for SQLite's `DELETE … RETURNING`.
 */
export function runResult({ rows, numAffectedRows }: QueryResult<unknown>): { rows: Row[]; affected: number } {
  return { rows: rows as Row[], affected: numAffectedRows === undefined ? rows.length : Number(numAffectedRows) }
}

/** `run` as the SQL store's runner. */
function sqlRunner(run: Runner): SqlRunner {
  return {
    run: async (sql, params) => runResult(await run.result(rawQuery(sql, params))),
    atomically: (fn) => run.atomically((tx) => fn(sqlRunner(tx))),
  }
}

/**
 * The store on `run`. `t` holds the adapter's table names and any model's (by the model's name);
 * the models' rows refer to users in `t.users`.
 */
export function kyselyStore(run: Runner, t: TableNames): Store {
  return sqlStore({ dialect: sqlDialects[run.dialect.name], runner: sqlRunner(run), tables: { ...t }, usersTable: t.users })
}
