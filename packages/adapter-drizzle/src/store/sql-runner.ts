/**
 * How the generic store of declared models (`@sesame/sql-common`'s SQL store) runs a statement on
 * a Drizzle database: raw SQL with positional parameters (`$1`… on PostgreSQL, `?` on MySQL and
 * SQLite), answering its rows and how many rows it changed (or returned).
 *
 * - PostgreSQL and MySQL: through the Drizzle database (`db.execute`), so that inside
 *   `db.transaction` it runs on the transaction's connection, and the app's Drizzle logger sees
 *   it. Drizzle binds only parameters of its own (`sql.raw` binds none), so each placeholder of
 *   the statement becomes one (`sql.param`), which Drizzle numbers again as it renders the
 *   statement; quoted names and literals are passed over.
 * - SQLite: on better-sqlite3 itself (`db.$client`), the one connection that a transaction's
 *   `BEGIN IMMEDIATE` holds, which tells a statement that returns rows (`reader`) from one that
 *   changes them.
 *
 * A failure rejects with the driver's error, not Drizzle's wrapper of it, whose message lists the
 * values (see `guarded.ts`); the store tells a duplicate key by that error.
 *
 * @module
 */
import type { Row, SqlRunner } from "@sesame/sql-common"
import { sql, type SQL, type SQLChunk } from "drizzle-orm"
import { withoutParameters } from "./guarded.js"
import type { MySqlDb } from "./mysql.js"
import type { PgDb } from "./pg.js"

/** Runs one statement: `SqlRunner.run`. */
export type Run = SqlRunner["run"]

/**
 * A quoted name or literal (passed over), or a placeholder: `$n` on PostgreSQL, `?` on MySQL
 * (whose strings take backslash escapes).
 */
const tokens = {
  pg: /"(?:[^"]|"")*"|'(?:[^']|'')*'|\$(\d+)/g,
  mysql: /`(?:[^`]|``)*`|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|\?/g,
}

/** `text` as Drizzle SQL whose placeholders are Drizzle parameters holding `params`. */
export function parameterized(dialect: keyof typeof tokens, text: string, params: readonly unknown[]): SQL {
  const chunks: SQLChunk[] = []
  let start = 0
  let next = 0
  for (const match of text.matchAll(tokens[dialect])) {
    const [token, position] = match
    if (token !== "?" && position === undefined) continue
    const index = position === undefined ? next++ : Number(position) - 1
    if (index >= params.length) throw new RangeError(`The statement has a placeholder (${token}) beyond its ${params.length} parameters.`)
    chunks.push(sql.raw(text.slice(start, match.index)), sql.param(params[index]))
    start = match.index + token.length
  }
  chunks.push(sql.raw(text.slice(start)))
  return sql.join(chunks)
}

/** `promise`, rejecting with the driver's error in place of Drizzle's. */
export async function unwrapped<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise
  } catch (error) {
    throw withoutParameters(error)
  }
}

/** The type id of PostgreSQL's `timestamptz`. */
const timestamptz = 1184

/** What node-postgres answers. */
interface PgResult {
  rows?: unknown
  rowCount?: number | null
  fields?: { name: string; dataTypeID: number }[]
}

/**
 * Statements on a Drizzle PostgreSQL database (node-postgres). Drizzle has node-postgres return a
 * `timestamptz` as its text (`2025-01-02 03:04:05.678+00`); the runner makes it the `Date` that
 * node-postgres itself returns.
 */
export function pgRun(db: PgDb): Run {
  return async (text, params) => {
    const result = (await unwrapped(db.execute(parameterized("pg", text, params)))) as PgResult
    if (!Array.isArray(result.rows)) throw new TypeError("DrizzleAdapter: the PostgreSQL driver's result has no rows; use node-postgres.")
    const rows = result.rows as Row[]
    const dates = (result.fields ?? []).filter((field) => field.dataTypeID === timestamptz).map((field) => field.name)
    for (const row of rows) for (const name of dates) if (typeof row[name] === "string") row[name] = new Date(row[name])
    return { rows, affected: result.rowCount ?? rows.length }
  }
}

/** Statements on a Drizzle MySQL database (mysql2: rows, or a header with `affectedRows`). */
export function mysqlRun(db: MySqlDb): Run {
  return async (text, params) => {
    const [result] = (await unwrapped(db.execute(parameterized("mysql", text, params)))) as unknown as [unknown]
    if (Array.isArray(result)) return { rows: result as Row[], affected: result.length }
    const affected = (result as { affectedRows?: unknown } | null)?.affectedRows
    if (typeof affected !== "number") throw new TypeError("DrizzleAdapter: the MySQL driver's result has no affectedRows; use mysql2.")
    return { rows: [], affected }
  }
}

/** What the runner needs of a better-sqlite3 database. */
export interface SqliteClient {
  prepare(source: string): { reader: boolean; all(...params: unknown[]): unknown[]; run(...params: unknown[]): { changes: number } }
}

/** Statements on better-sqlite3, each once `ready` resolves (when no transaction is open, or in it). */
export function sqliteRun(client: SqliteClient, ready: () => Promise<void>): Run {
  return async (text, params) => {
    await ready()
    const statement = client.prepare(text)
    if (!statement.reader) return { rows: [], affected: statement.run(...params).changes }
    const rows = statement.all(...params) as Row[]
    return { rows, affected: rows.length }
  }
}
