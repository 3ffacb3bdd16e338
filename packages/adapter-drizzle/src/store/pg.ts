/**
 * PostgreSQL through Drizzle (node-postgres or any other Drizzle PostgreSQL driver): every write
 * returns its row with `RETURNING`, so a delete both removes and reads the row in one statement,
 * and transactions are Drizzle's, on a connection of their own from the pool.
 *
 * @module
 */
import { count, type SQL, type Table } from "drizzle-orm"
import type { PgColumn, PgDatabase, PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core"
import type { Row, Store } from "./types.js"

/** Any Drizzle PostgreSQL database, whatever its driver and schema. */
export type PgDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>

export function pgStore(db: PgDb, inTransaction = false): Store {
  const t = (table: Table) => table as PgTable
  const store: Store = {
    async insert(table, values) {
      const [row] = await db.insert(t(table)).values(values).returning()
      return row as Row
    },
    async find(table, where) {
      const [row] = await db.select().from(t(table)).where(where).limit(1)
      return row ?? null
    },
    findAll: (table, where) => db.select().from(t(table)).where(where),
    async updateOne(table, values, where) {
      const [row] = await db.update(t(table)).set(values).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async removeOne(table, where) {
      const [row] = await db.delete(t(table)).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async upsert(table, values, target, set) {
      const [row] = await db.insert(t(table)).values(values).onConflictDoUpdate({ target: target as PgColumn, set }).returning()
      return row as Row
    },
    async insertMany(table, rows) {
      await db.insert(t(table)).values(rows)
    },
    async count(table, where) {
      const [row] = await db.select({ count: count() }).from(t(table)).where(where)
      return Number(row?.count ?? 0)
    },
    async remove(table: Table, where: SQL) {
      return (await db.delete(t(table)).where(where).returning()).length
    },
    transaction: (fn) => (inTransaction ? fn(store) : db.transaction((tx) => fn(pgStore(tx, true)))),
  }
  return store
}
