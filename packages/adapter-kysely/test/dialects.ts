/**
 * The three databases the tests run on, each test file in a place of its own (a PostgreSQL schema,
 * a MariaDB database, a SQLite file) so that files running in parallel, this package's or other
 * adapters', never see each other's tables. Each run offers Kysely instances on its place, and the
 * dialect's own Sesame adapter with its raw test reader: the tables are the same, so the other
 * adapter's reader checks what this one stored.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import SqliteAdapter, { migrate as migrateSqlite } from "@sesame/adapter-sqlite"
import type { AdapterTestDb } from "@sesame/adapter-test"
import type { Adapter } from "@sesame/core/adapters"
import { mysqlMigrations, pgMigrations, sqliteMigrations, type MigrateOptions, type Migration, type MigrationResult, type TableNames } from "@sesame/sql-common"
import Database from "better-sqlite3"
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type KyselyPlugin } from "kysely"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { rawReader as mysqlReader } from "../../adapter-mysql/test/raw-reader.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { rawReader as pgReader } from "../../adapter-pg/test/raw-reader.js"
import { rawReader as sqliteReader } from "../../adapter-sqlite/test/raw-reader.js"

export interface DialectRun {
  name: "PostgreSQL" | "MariaDB" | "SQLite"
  /** A new Kysely instance on the run's place (another app instance, in effect). */
  kysely(plugins?: KyselyPlugin[]): Kysely<object>
  /** Raw reads of the tables named `tables`, on a connection of their own. */
  raw(tables?: Partial<TableNames>): AdapterTestDb
  /** The dialect's own Sesame adapter (`@sesame/adapter-pg`, `-mysql`, `-sqlite`) on the run's place. */
  nativeAdapter(tables?: Partial<TableNames>): Adapter
  /** That adapter's `migrate`. */
  nativeMigrate(options?: MigrateOptions): Promise<MigrationResult>
  /** Runs one statement. */
  exec(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>
  /** The schema (PostgreSQL) or database (MariaDB) of the run; undefined for SQLite. */
  schema?: string
  /** The longest table name the adapters accept on this dialect. */
  maxNameLength: number
  /** The dialect's migrations, as every adapter on it applies them. */
  migrations: readonly Migration[]
  close(): Promise<void>
}

/** A new schema in the `test` database. */
export async function postgres(): Promise<DialectRun> {
  const place = testSchema("kysely")
  await place.create()
  const pool = place.pool()
  return {
    name: "PostgreSQL",
    kysely: (plugins) => new Kysely({ dialect: new PostgresDialect({ pool: place.pool() }), plugins }),
    raw: (tables) => pgReader(place.pool(), tables),
    nativeAdapter: (tables) => PostgresAdapter(pool, { tables }),
    nativeMigrate: (options) => migratePg(pool, options),
    exec: async (sql, params) => (await pool.query(sql, params)).rows,
    schema: place.name,
    maxNameLength: 48,
    migrations: pgMigrations,
    close: () => place.drop(),
  }
}

/**
 * A new database. The Kysely instances' pools are set to a time zone other than UTC (mysql2 turns
 * `Date`s into that zone's local time), to show that the adapter stores UTC whatever the pool says.
 */
export async function mariaDb(): Promise<DialectRun> {
  const place = testDatabase("kysely")
  await place.create()
  const pool = place.pool()
  return {
    name: "MariaDB",
    kysely: (plugins) => new Kysely({ dialect: new MysqlDialect({ pool: place.pool({ timezone: "+05:30" }).pool }), plugins }),
    raw: (tables) => mysqlReader(place.pool(), tables),
    nativeAdapter: (tables) => MysqlAdapter(pool, { tables }),
    nativeMigrate: (options) => migrateMysql(pool, options),
    exec: async (sql, params) => (await pool.query(sql, params))[0] as Record<string, unknown>[],
    schema: place.name,
    maxNameLength: 48,
    migrations: mysqlMigrations,
    close: () => place.drop(),
  }
}

/** A new SQLite file; every instance and reader has a connection of its own, as processes would. */
export async function sqlite(): Promise<DialectRun> {
  const file = join(mkdtempSync(join(tmpdir(), "sesame-kysely-")), "auth.db")
  const connections: Database.Database[] = []
  const open = () => {
    const connection = new Database(file)
    connection.pragma("journal_mode = WAL")
    connections.push(connection)
    return connection
  }
  const admin = open()
  return {
    name: "SQLite",
    kysely: (plugins) => new Kysely({ dialect: new SqliteDialect({ database: open() }), plugins }),
    raw: (tables) => sqliteReader(open(), tables),
    nativeAdapter: (tables) => SqliteAdapter(open(), { tables, migrate: false }),
    nativeMigrate: async (options) => migrateSqlite(open(), options),
    exec: async (sql, params = []) => {
      const statement = admin.prepare(sql)
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[]
      statement.run(...params)
      return []
    },
    maxNameLength: 63,
    migrations: sqliteMigrations,
    async close() {
      for (const connection of connections) connection.close()
    },
  }
}

/** Each dialect by name, for `describe.each`. */
export const dialects = [
  { name: "PostgreSQL", open: postgres },
  { name: "MariaDB", open: mariaDb },
  { name: "SQLite", open: sqlite },
]
