/**
 * Recognising a duplicate key, whichever driver (or query builder wrapping one) reported it, so
 * that the store can throw `StoreConflict` for a repeated primary key or unique value and let
 * every other error through as it came.
 *
 * @module
 */

/** The fields a driver's error may carry. */
interface DriverError {
  code?: unknown
  errno?: unknown
  message?: unknown
  cause?: unknown
}

/** Codes of a unique or primary-key violation: PostgreSQL's SQLSTATE, mysql2's and better-sqlite3's codes. */
const codes = new Set(["23505", "ER_DUP_ENTRY", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"])

/** Whether an error (or any error in its `cause` chain) is a unique/primary-key violation of pg (23505), mysql/mariadb (errno 1062 / ER_DUP_ENTRY) or sqlite (SQLITE_CONSTRAINT_UNIQUE / SQLITE_CONSTRAINT_PRIMARYKEY / "UNIQUE constraint failed"). */
export function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let e = error; typeof e === "object" && e !== null && !seen.has(e); e = (e as DriverError).cause) {
    seen.add(e)
    const { code, errno, message } = e as DriverError
    if (codes.has(code as string) || errno === 1062) return true
    // SQLite drivers that give no extended code (libSQL, D1) say it in the message.
    if (typeof message === "string" && message.includes("UNIQUE constraint failed")) return true
  }
  return false
}
