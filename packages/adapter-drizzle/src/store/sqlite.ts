/**
 * SQLite through Drizzle on better-sqlite3: every write returns its row with `RETURNING` (SQLite
 * 3.35+). better-sqlite3 cannot run a transaction across `await`s itself (its `transaction()`
 * refuses async functions, and so Drizzle's does), so the adapter issues `BEGIN IMMEDIATE` /
 * `COMMIT` / `ROLLBACK` and holds other statements of the same database object back meanwhile
 * (see `gate.ts`).
 *
 * @module
 */
import { sql, type Table } from "drizzle-orm"
import type { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core"
import { Gate } from "@sesame/sql-common"
import type { Row, Store } from "./types.js"

/** A Drizzle SQLite database on a synchronous driver (better-sqlite3). */
export type SqliteDb = BaseSQLiteDatabase<"sync", unknown, Record<string, unknown>>

export function sqliteStore(db: SqliteDb, gate = new Gate(), inTransaction = false): Store {
  const t = (table: Table) => table as SQLiteTable
  // Outside a transaction, wait for any open one to end; inside, run at once.
  const ready = inTransaction ? async () => {} : () => gate.idle()
  return {
    async insert(table, values) {
      await ready()
      const [row] = await db.insert(t(table)).values(values).returning()
      return row as Row
    },
    async find(table, where) {
      await ready()
      const [row] = await db.select().from(t(table)).where(where).limit(1)
      return row ?? null
    },
    async findAll(table, where) {
      await ready()
      return db.select().from(t(table)).where(where)
    },
    async page(table, where, orderBy, limit) {
      await ready()
      return db
        .select()
        .from(t(table))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
    },
    async updateOne(table, values, where) {
      await ready()
      const [row] = await db.update(t(table)).set(values).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async removeOne(table, where) {
      await ready()
      const [row] = await db.delete(t(table)).where(where).returning()
      return (row as Row | undefined) ?? null
    },
    async remove(table, where) {
      await ready()
      return (await db.delete(t(table)).where(where).returning()).length
    },
  }
}

/**
 * Runs `fn` in a transaction on `db`'s connection (`BEGIN IMMEDIATE`), alone at `gate`: committed
 * when `fn` resolves, rolled back when it throws. `fn` runs its statements past the gate (a store
 * or runner made with `inTransaction`).
 */
export function sqliteTransaction<T>(db: SqliteDb, gate: Gate, fn: () => Promise<T>): Promise<T> {
  return gate.exclusive(async () => {
    db.run(sql`BEGIN IMMEDIATE`)
    try {
      const result = await fn()
      db.run(sql`COMMIT`)
      return result
    } catch (error) {
      try {
        db.run(sql`ROLLBACK`)
      } catch {
        // After some failures (a full disk, an I/O error) SQLite has rolled back already and
        // ROLLBACK fails with "no transaction is active"; the first error is the one to report.
      }
      throw error
    }
  })
}
