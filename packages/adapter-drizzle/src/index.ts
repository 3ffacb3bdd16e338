/**
 * `@sesame/adapter-drizzle`: Sesame's adapter for Drizzle ORM on PostgreSQL (node-postgres),
 * MySQL/MariaDB (mysql2) and SQLite (better-sqlite3).
 *
 * ```ts
 * import { drizzle } from "drizzle-orm/node-postgres"
 * import DrizzleAdapter from "@sesame/adapter-drizzle"
 * const adapter = DrizzleAdapter(drizzle(pool))
 * ```
 *
 * The dialect comes from the database object. The tables are Drizzle tables, exported per dialect
 * from `@sesame/adapter-drizzle/pg`, `/mysql` and `/sqlite` for the app's Drizzle schema (and so
 * for drizzle-kit); `tables` hands the adapter the app's own (renamed, in a PostgreSQL schema, or
 * with columns added).
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { entityKind, is, sql, type Table } from "drizzle-orm"
import { MySqlDatabase, MySqlTable } from "drizzle-orm/mysql-core"
import { PgDatabase, PgTable } from "drizzle-orm/pg-core"
import { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core"
import { drizzleAdapter } from "./adapter.js"
import { mysqlTables } from "./schema/mysql.js"
import { pgTables } from "./schema/pg.js"
import { sqliteTables } from "./schema/sqlite.js"
import { guarded } from "./store/guarded.js"
import { mysqlStore, type MySqlDb } from "./store/mysql.js"
import { pgStore, type PgDb } from "./store/pg.js"
import { sqliteStore, type SqliteDb } from "./store/sqlite.js"
import type { SesameTables } from "./tables.js"

export type { SesameTables } from "./tables.js"
export { defaultTableNames, type TableNames } from "./schema/names.js"

/** A Drizzle database on one of the supported dialects. */
export type DrizzleDatabase = PgDb | MySqlDb | SqliteDb

export interface DrizzleAdapterOptions {
  /**
   * The app's tables, in place of the default ones of the database's dialect: made with
   * `pgTables`, `mysqlTables` or `sqliteTables` (other names, a PostgreSQL schema, a users table
   * with columns of your own). Any of the ten may be given; the others are the defaults.
   */
  tables?: Partial<SesameTables>
}

type TableClass = typeof PgTable | typeof MySqlTable | typeof SQLiteTable

function withTables(defaults: SesameTables, given: Partial<SesameTables> | undefined, kind: TableClass, dialect: string): SesameTables {
  const tables = { ...defaults, ...given }
  for (const [role, table] of Object.entries(tables) as [string, Table][]) {
    if (!is(table, kind)) throw new TypeError(`DrizzleAdapter: tables.${role} is not a ${dialect} table, but the database is ${dialect}.`)
  }
  return tables
}

/** Whether `db` runs statements synchronously (better-sqlite3), which the SQLite store needs. */
function isBetterSqlite(db: SqliteDb): boolean {
  return (db.constructor as { [entityKind]?: string })[entityKind] === "BetterSQLite3Database"
}

/**
 * The Drizzle adapter. `db` is a Drizzle database from `drizzle-orm/node-postgres` (give it a
 * `pg.Pool`, so that transactions get connections of their own), `drizzle-orm/mysql2` (a pool,
 * likewise) or `drizzle-orm/better-sqlite3`. On SQLite the adapter switches foreign keys on for
 * the connection, since Sesame's integrity rules rest on them.
 */
export function DrizzleAdapter(db: DrizzleDatabase, options: DrizzleAdapterOptions = {}): Adapter {
  if (is(db, PgDatabase)) return drizzleAdapter(guarded(pgStore(db)), withTables(pgTables(), options.tables, PgTable, "PostgreSQL"))
  if (is(db, MySqlDatabase)) return drizzleAdapter(guarded(mysqlStore(db)), withTables(mysqlTables(), options.tables, MySqlTable, "MySQL"))
  if (is(db, BaseSQLiteDatabase)) {
    if (!isBetterSqlite(db)) throw new TypeError("DrizzleAdapter: on SQLite, use drizzle-orm/better-sqlite3.")
    db.run(sql`PRAGMA foreign_keys = ON`)
    return drizzleAdapter(guarded(sqliteStore(db)), withTables(sqliteTables(), options.tables, SQLiteTable, "SQLite"))
  }
  throw new TypeError("DrizzleAdapter: expected a Drizzle database (drizzle-orm/node-postgres, drizzle-orm/mysql2 or drizzle-orm/better-sqlite3).")
}

export default DrizzleAdapter
