/**
 * Running statements through mysql2, the same way whatever the app configured on its pool: rows
 * come back as objects (not arrays or nested tables), dates as strings that the adapter reads as
 * UTC, and dates go in as UTC strings, so the pool's and the server's time zones change nothing.
 *
 * @module
 */
import type { Row } from "@sesame/sql-common"
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from "mysql2/promise"

/** The pool, or one connection of it (a transaction's). */
export type Queryable = Pool | PoolConnection

/** Per-statement options that override whatever shape the app's pool is set to return. */
const shape = { dateStrings: true, rowsAsArray: false, nestTables: false } as const

/** A value as a statement parameter: dates as UTC `YYYY-MM-DD hh:mm:ss.fff`, undefined as NULL. */
export function param(value: unknown): string | number | null {
  if (value === undefined || value === null) return null
  if (value instanceof Date) return value.toISOString().slice(0, 23).replace("T", " ")
  if (typeof value === "boolean") return value ? 1 : 0
  if (typeof value === "string" || typeof value === "number") return value
  throw new TypeError(`Cannot store a value of type ${typeof value}.`)
}

/** The rows a statement returns. */
export async function rows(db: Queryable, sql: string, params: unknown[] = []): Promise<Row[]> {
  const [result] = await db.execute<RowDataPacket[]>({ sql, ...shape }, params.map(param))
  return result as Row[]
}

/** Runs a statement that returns no rows; resolves with the number of rows it affected. */
export async function exec(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  const [result] = await db.execute<ResultSetHeader>({ sql, ...shape }, params.map(param))
  return result.affectedRows
}

/**
 * Runs `fn` between START TRANSACTION and COMMIT on a dedicated connection; rolls back when it
 * throws. The connection is released in every path, and destroyed rather than pooled when the
 * transaction did not end cleanly (the connection may be dead, or still inside the transaction).
 */
export async function inTransaction<T>(pool: Pool, fn: (connection: PoolConnection) => Promise<T>): Promise<T> {
  const connection = await pool.getConnection()
  // Healthy only once the transaction has ended by COMMIT or ROLLBACK.
  let healthy = false
  try {
    await connection.query("START TRANSACTION")
    try {
      const result = await fn(connection)
      await connection.query("COMMIT")
      healthy = true
      return result
    } catch (error) {
      await connection.query("ROLLBACK").then(
        () => (healthy = true),
        () => {},
      )
      throw error
    }
  } finally {
    if (healthy) connection.release()
    else connection.destroy()
  }
}
