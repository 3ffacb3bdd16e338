/**
 * What a Drizzle database is: its dialect, told by the database object's class, the session the
 * adapter runs on (see `store/session.ts`), and the tables of the `tables` option: Drizzle tables
 * of that dialect for Sesame's ten, table names or Drizzle tables for declared models.
 *
 * @module
 */
import { entityKind, getTableName, is, sql, type Table } from "drizzle-orm"
import { MySqlDatabase, MySqlTable } from "drizzle-orm/mysql-core"
import { PgDatabase, PgTable } from "drizzle-orm/pg-core"
import { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core"
import { mysqlTables } from "./schema/mysql.js"
import { pgTables } from "./schema/pg.js"
import { sqliteTables } from "./schema/sqlite.js"
import type { MySqlDb } from "./store/mysql.js"
import type { PgDb } from "./store/pg.js"
import { mysqlSession, pgSession, sqliteSession, type Session } from "./store/session.js"
import type { SqliteDb } from "./store/sqlite.js"
import type { SesameTables } from "./tables.js"

/** A Drizzle database on one of the supported dialects. */
export type DrizzleDatabase = PgDb | MySqlDb | SqliteDb

/**
 * The app's tables: any of Sesame's ten, as tables of the database's dialect, and the table of a
 * declared model (its name, or a Drizzle table of the dialect), by the model's name, where it
 * differs from the model's `table`.
 */
export type DrizzleTables = Partial<SesameTables> | Readonly<Record<string, Table | string>>

/** The database's session, and the tables it works on. */
export interface Opened {
  session: Session
  tables: SesameTables
  /**
   * The store's table names, by model name: the given ones of declared models (a Drizzle table's
   * SQL name), and the names of Sesame's Drizzle tables by role, since Sesame's own models are
   * named for the roles whose tables they use (`passwords`, `signingKeys`, …).
   */
  modelTables: Readonly<Record<string, string>>
}

type TableClass = typeof PgTable | typeof MySqlTable | typeof SQLiteTable

function withTables(defaults: SesameTables, given: DrizzleTables | undefined, kind: TableClass, dialect: string, caller: string): Omit<Opened, "session"> {
  const tables: Record<string, unknown> = { ...defaults, ...given }
  const modelTables: Record<string, string> = {}
  for (const [name, table] of Object.entries(tables)) {
    // A declared model's table is a name or a Drizzle table (the store needs only its name). Other
    // tables of the app's schema may come along (`tables: schema`); they must be of the dialect.
    if (typeof table === "string" && !(name in defaults)) modelTables[name] = table
    else if (!is(table, kind)) throw new TypeError(`${caller}: tables.${name} is not a ${dialect} table, but the database is ${dialect}.`)
    else modelTables[name] = getTableName(table as Table)
  }
  return { tables: tables as unknown as SesameTables, modelTables }
}

/** Whether `db` runs statements synchronously (better-sqlite3), which the SQLite store needs. */
function isBetterSqlite(db: SqliteDb): boolean {
  return (db.constructor as { [entityKind]?: string })[entityKind] === "BetterSQLite3Database"
}

/**
 * The session on `db` and the tables `given` makes. Throws a `TypeError` naming `caller` for
 * anything but a Drizzle database on node-postgres, mysql2 or better-sqlite3, and for tables of
 * another dialect. On SQLite it switches foreign keys on for the connection, since Sesame's
 * integrity rules rest on them.
 */
export function open(db: DrizzleDatabase, given: DrizzleTables | undefined, caller: string): Opened {
  if (is(db, PgDatabase)) return { session: pgSession(db), ...withTables(pgTables(), given, PgTable, "PostgreSQL", caller) }
  if (is(db, MySqlDatabase)) return { session: mysqlSession(db), ...withTables(mysqlTables(), given, MySqlTable, "MySQL", caller) }
  if (is(db, BaseSQLiteDatabase)) {
    if (!isBetterSqlite(db)) throw new TypeError(`${caller}: on SQLite, use drizzle-orm/better-sqlite3.`)
    db.run(sql`PRAGMA foreign_keys = ON`)
    return { session: sqliteSession(db), ...withTables(sqliteTables(), given, SQLiteTable, "SQLite", caller) }
  }
  throw new TypeError(`${caller}: expected a Drizzle database (drizzle-orm/node-postgres, drizzle-orm/mysql2 or drizzle-orm/better-sqlite3).`)
}
