/**
 * One transaction on one pooled connection. node-postgres leaves a checked-out client's `error`
 * events to the caller (the pool handles them only while the client is idle), so a connection that
 * drops while `fn` runs would otherwise emit an unhandled `error` and end the process. The client
 * is released in every path; one that failed (or whose rollback failed) is closed rather than
 * handed back to the pool, so the next caller never gets a dead or half-finished connection.
 *
 * @module
 */
import type { Pool, PoolClient } from "pg"

/** Runs `fn` between BEGIN and COMMIT on a dedicated connection; rolls back when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  const onError = (error: Error) => {
    broken = error
  }
  client.on("error", onError)
  try {
    await client.query("BEGIN")
    try {
      const result = await fn(client)
      await client.query("COMMIT")
      return result
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken ??= rollbackError
      })
      throw error
    }
  } finally {
    client.off("error", onError)
    client.release(broken)
  }
}
