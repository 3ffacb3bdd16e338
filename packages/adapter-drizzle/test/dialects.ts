/**
 * One test run on each dialect: its own PostgreSQL schema, MariaDB database or SQLite file, the
 * Drizzle database on it, a way to create tables from Drizzle definitions, and raw reads.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import DrizzleAdapter, { type DrizzleAdapterOptions, type SesameTables, type TableNames } from "@sesame/adapter-drizzle"
import { mysqlTables } from "@sesame/adapter-drizzle/mysql"
import { pgTables } from "@sesame/adapter-drizzle/pg"
import { sqliteTables } from "@sesame/adapter-drizzle/sqlite"
import type { Adapter } from "@sesame/core/adapters"
import Database from "better-sqlite3"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { mysqlCreateSql, pgCreateSql, sqliteCreateSql } from "./create-tables.js"
import { numbered, rawReader, type Query } from "./raw-reader.js"
import { mariaDbRun, postgresRun, sqliteFile } from "./services.js"

export interface DialectRun {
  name: "PostgreSQL" | "MariaDB" | "SQLite"
  /** The five tables with `names`, as this dialect's module makes them (in the run's schema). */
  tables(names?: Partial<TableNames>): SesameTables
  /** Creates `tables` in the run's schema, database or file. */
  create(tables: object): Promise<void>
  /** An adapter on a database object of its own (another app instance, in effect). */
  adapter(options?: DrizzleAdapterOptions): Adapter
  /** Raw reads of the tables named `names`, on a connection of their own. */
  raw(names?: Partial<TableNames>): AdapterTestDb
  /** Plain SQL (with `?` placeholders) on a connection of its own. */
  query: Query
  close(): Promise<void>
}

export async function postgres(): Promise<DialectRun> {
  const run = await postgresRun()
  const query: Query = async (sql, params) => (await run.pool.query(numbered(sql), params)).rows
  return {
    name: "PostgreSQL",
    tables: (names) => pgTables({ schema: run.schema, names }),
    async create(tables) {
      for (const statement of await pgCreateSql(tables)) await run.pool.query(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzlePg(run.newPool()), options),
    raw: (names) => rawReader(query, (name) => `"${name}"`, names),
    query,
    close: () => run.drop(),
  }
}

export async function mariaDb(): Promise<DialectRun> {
  const run = await mariaDbRun()
  const query: Query = async (sql, params) => (await run.pool.query(sql, params))[0] as Record<string, unknown>[]
  return {
    name: "MariaDB",
    tables: (names) => mysqlTables({ names }),
    async create(tables) {
      for (const statement of await mysqlCreateSql(tables)) await run.pool.query(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzleMysql(run.newPool()), options),
    raw: (names) => rawReader(query, (name) => `\`${name}\``, names),
    query,
    close: () => run.drop(),
  }
}

export async function sqlite(): Promise<DialectRun> {
  const file = sqliteFile()
  const connections: Database.Database[] = []
  const open = () => {
    const connection = new Database(file)
    connection.pragma("journal_mode = WAL")
    // Another connection holding the write lock makes this one wait, as a second process would.
    connection.pragma("busy_timeout = 5000")
    connections.push(connection)
    return connection
  }
  const raw = open()
  const query: Query = async (sql, params) => raw.prepare(sql).all(...params) as Record<string, unknown>[]
  return {
    name: "SQLite",
    tables: (names) => sqliteTables({ names }),
    async create(tables) {
      for (const statement of await sqliteCreateSql(tables)) raw.exec(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzleSqlite(open()), options),
    raw: (names) => rawReader(query, (name) => `"${name}"`, names),
    query,
    async close() {
      for (const connection of connections) connection.close()
    },
  }
}

/** The default tables with `names` (or the default names), created, and an adapter on them. */
export async function withTables(run: DialectRun, names?: Partial<TableNames>) {
  const tables = run.tables(names)
  await run.create(tables)
  return { tables, adapter: run.adapter({ tables }) }
}
