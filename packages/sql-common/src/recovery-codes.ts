/**
 * The one write of `setRecoveryCodes` that differs from an ordinary statement: a user's codes go
 * in as one multi-row `INSERT`, after the adapter deleted the earlier set in the same
 * transaction, so that no reader ever sees a mix of old and new codes, or none in between. The
 * primary key (user, hash) refuses a hash listed twice, so the list is deduplicated first (a
 * set, as the contract has it).
 *
 * @module
 */
import type { Statement } from "./upsert.js"
import type { UpdateDialect } from "./update.js"

/** `INSERT` of the rows (`userId`, hash) for each distinct hash; null when there are none. */
export function insertRecoveryCodesSql(dialect: UpdateDialect, table: string, userId: string, hashes: readonly string[]): Statement | null {
  const distinct = [...new Set(hashes)]
  if (distinct.length === 0) return null
  const { quote, placeholder } = dialect
  const rows = distinct.map((_, i) => `(${placeholder(2 * i + 1)}, ${placeholder(2 * i + 2)})`).join(", ")
  return {
    sql: `INSERT INTO ${quote(table)} (${quote("userId")}, ${quote("hash")}) VALUES ${rows}`,
    params: distinct.flatMap((hash) => [userId, hash]),
  }
}
