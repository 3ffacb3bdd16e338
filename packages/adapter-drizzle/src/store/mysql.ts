/**
 * MySQL and MariaDB through Drizzle (mysql2). MySQL has no `RETURNING`, so a write is followed by
 * a read of its row by key, and a delete that must return its row reads it first and then lets
 * the `DELETE` decide: of concurrent deletes of one row, only one affects it, and only that one
 * returns the row (so a verification token is still used once).
 *
 * @module
 */
import type { Table } from "drizzle-orm"
import type { MySqlDatabase, MySqlQueryResultHKT, MySqlTable, PreparedQueryHKTBase } from "drizzle-orm/mysql-core"
import type { Row, Store } from "./types.js"

/** Any Drizzle MySQL database, whatever its schema. */
export type MySqlDb = MySqlDatabase<MySqlQueryResultHKT, PreparedQueryHKTBase, Record<string, unknown>>

/** The affected-row count of a write: mysql2 answers `[ResultSetHeader, fields]`. */
function affectedRows(result: unknown): number {
  const header: unknown = Array.isArray(result) ? result[0] : result
  const count = (header as { affectedRows?: unknown } | null)?.affectedRows
  if (typeof count !== "number") throw new TypeError("DrizzleAdapter: the MySQL driver's result has no affectedRows; use mysql2.")
  return count
}

export function mysqlStore(db: MySqlDb): Store {
  const t = (table: Table) => table as MySqlTable
  const store: Store = {
    async insert(table, values, key) {
      await db.insert(t(table)).values(values)
      const row = await store.find(table, key)
      if (!row) throw new Error("The inserted row could not be read back.")
      return row
    },
    async find(table, where) {
      const [row] = await db.select().from(t(table)).where(where).limit(1)
      return row ?? null
    },
    findAll: (table, where) => db.select().from(t(table)).where(where),
    page: (table, where, orderBy, limit) =>
      db
        .select()
        .from(t(table))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit),
    async updateOne(table, values, where) {
      await db.update(t(table)).set(values).where(where)
      return store.find(table, where)
    },
    async removeOne(table, where) {
      const row = await store.find(table, where)
      if (!row) return null
      return affectedRows(await db.delete(t(table)).where(where)) > 0 ? row : null
    },
    async remove(table, where) {
      return affectedRows(await db.delete(t(table)).where(where))
    },
  }
  return store
}
