/**
 * PostgreSQL through Drizzle (node-postgres or any other Drizzle PostgreSQL driver): every write
 * returns its row with `RETURNING`, so a delete both removes and reads the row in one statement.
 *
 * @module
 */
import type { SQL, Table } from "drizzle-orm"
import type { PgDatabase, PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core"
import type { Row, Store } from "./types.js"

/** Any Drizzle PostgreSQL database, whatever its driver and schema. */
export type PgDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>

export function pgStore(db: PgDb): Store {
  const t = (table: Table) => table as PgTable
  return {
    async insert(table, values) {
      const [row] = await db.insert(t(table)).values(values).returning()
      return row as Row
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
      const [row] = await db.update(t(table)).set(values).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async removeOne(table, where) {
      const [row] = await db.delete(t(table)).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async remove(table: Table, where: SQL) {
      return (await db.delete(t(table)).where(where).returning()).length
    },
  }
}
