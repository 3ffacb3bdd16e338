/**
 * One test run on each dialect: its own PostgreSQL schema, MariaDB database or SQLite file, the
 * Drizzle database on it, a way to create tables from Drizzle definitions, and raw reads.
 */
import type { AdapterTestDb } from "@sesame/adapter-test"
import DrizzleAdapter, { type DrizzleAdapterOptions, type SesameTables, type TableNames } from "@sesame/adapter-drizzle"
import { mysqlTables, mysqlUserColumns, mysqlUserIndexes } from "@sesame/adapter-drizzle/mysql"
import { pgTables, pgUserColumns, pgUserIndexes } from "@sesame/adapter-drizzle/pg"
import { sqliteTables, sqliteUserColumns, sqliteUserIndexes } from "@sesame/adapter-drizzle/sqlite"
import type { Adapter } from "@sesame/core/adapters"
import Database from "better-sqlite3"
import { sql } from "drizzle-orm"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { bigint as mysqlBigint, boolean as mysqlBoolean, datetime, json, mysqlTable, text as mysqlText, varchar } from "drizzle-orm/mysql-core"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { bigint as pgBigint, boolean as pgBoolean, jsonb, pgSchema, text as pgText, timestamp } from "drizzle-orm/pg-core"
import { integer, sqliteTable, text as sqliteText } from "drizzle-orm/sqlite-core"
import { mysqlCreateSql, pgCreateSql, sqliteCreateSql } from "./create-tables.js"
import { numbered, rawReader, type Query } from "./raw-reader.js"
import { mariaDbRun, postgresRun, sqliteFile } from "./services.js"

export interface DialectRun {
  name: "PostgreSQL" | "MariaDB" | "SQLite"
  /** The nine tables with `names`, as this dialect's module makes them (in the run's schema). */
  tables(names?: Partial<TableNames>): SesameTables
  /** The same, but with a users table that has a column of the app's own: `role`, default `member`. */
  extendedTables(names: TableNames): SesameTables
  /**
   * The same, with a users table that has the columns of the user fields suite's model
   * (`userFieldsTestModel`), of kinds Drizzle converts itself on some dialects and not on others.
   */
  userFieldsTables(names: TableNames): SesameTables
  /** Creates `tables` in the run's schema, database or file. */
  create(tables: object): Promise<void>
  /** An adapter on a database object of its own (another app instance, in effect). */
  adapter(options?: DrizzleAdapterOptions): Adapter
  /** Raw reads of the tables named `names`, on a connection of their own. */
  raw(names?: Partial<TableNames>): AdapterTestDb
  /** Plain SQL (with `?` placeholders) on a connection of its own. */
  query: Query
  /** The indexes and cascading foreign keys the run's tables have, as the server reports them. */
  describe(): Promise<SchemaFacts>
  close(): Promise<void>
}

export interface SchemaFacts {
  indexes: { table: string; unique: boolean; columns: string[] }[]
  /** `<table>.<column>` of each foreign key to the users table that cascades on delete. */
  cascades: string[]
}

/** Index rows (one per column, in order) grouped into indexes. */
function groupIndexes(rows: { table: string; index: string; unique: boolean; column: string }[]): SchemaFacts["indexes"] {
  const byName = new Map<string, SchemaFacts["indexes"][number]>()
  for (const row of rows) {
    const key = `${row.table}.${row.index}`
    if (!byName.has(key)) byName.set(key, { table: row.table, unique: row.unique, columns: [] })
    byName.get(key)!.columns.push(row.column)
  }
  return [...byName.values()]
}

export async function postgres(): Promise<DialectRun> {
  const run = await postgresRun()
  const query: Query = async (sql, params) => (await run.pool.query(numbered(sql), params)).rows
  return {
    name: "PostgreSQL",
    tables: (names) => pgTables({ schema: run.schema, names }),
    extendedTables(names) {
      const users = pgSchema(run.schema).table(names.users, { ...pgUserColumns(), role: pgText("role").notNull().default("member") }, pgUserIndexes(names.users))
      return pgTables({ schema: run.schema, names, users })
    },
    userFieldsTables(names) {
      const name = names.users
      const users = pgSchema(run.schema).table(
        name,
        {
          ...pgUserColumns(),
          role: pgText("role").notNull().default("member"),
          plan: pgText("plan_name"),
          // A bigint read as a JavaScript bigint, a JSON column Drizzle parses.
          seats: pgBigint("seats", { mode: "bigint" }).notNull().default(sql`1`),
          beta: pgBoolean("beta").notNull().default(false),
          trialEnds: timestamp("trialEnds", { mode: "date", withTimezone: true, precision: 3 }),
          prefs: jsonb("prefs"),
          bio: pgText("bio"),
        },
        pgUserIndexes(name),
      )
      return pgTables({ schema: run.schema, names, users })
    },
    async create(tables) {
      for (const statement of await pgCreateSql(tables)) await run.pool.query(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzlePg(run.newPool()), options),
    raw: (names) => rawReader(query, (name) => `"${name}"`, names),
    query,
    async describe() {
      const rows = await query(
        `SELECT t.relname AS "table", i.relname AS "index", ix.indisunique AS "unique", a.attname AS "column"
         FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, position) ON true
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
         WHERE n.nspname = ? ORDER BY 1, 2, k.position`,
        [run.schema],
      )
      const cascades = await query(
        `SELECT c.conrelid::regclass::text AS "table", a.attname AS "column" FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
         WHERE c.contype = 'f' AND c.confdeltype = 'c' AND c.connamespace = ?::regnamespace`,
        [run.schema],
      )
      return {
        indexes: groupIndexes(rows as { table: string; index: string; unique: boolean; column: string }[]),
        cascades: cascades.map((r) => `${String(r.table).replace(`${run.schema}.`, "").replaceAll('"', "")}.${String(r.column)}`),
      }
    },
    close: () => run.drop(),
  }
}

export async function mariaDb(): Promise<DialectRun> {
  const run = await mariaDbRun()
  const query: Query = async (sql, params) => (await run.pool.query(sql, params))[0] as Record<string, unknown>[]
  return {
    name: "MariaDB",
    tables: (names) => mysqlTables({ names }),
    extendedTables(names) {
      const users = mysqlTable(names.users, { ...mysqlUserColumns(), role: varchar("role", { length: 32 }).notNull().default("member") }, mysqlUserIndexes(names.users))
      return mysqlTables({ names, users })
    },
    userFieldsTables(names) {
      const name = names.users
      const users = mysqlTable(
        name,
        {
          ...mysqlUserColumns(),
          role: varchar("role", { length: 32 }).notNull().default("member"),
          // Another property than the field's name, on the field's column.
          planName: varchar("plan_name", { length: 64 }),
          seats: mysqlBigint("seats", { mode: "number" }).notNull().default(1),
          beta: mysqlBoolean("beta").notNull().default(false),
          trialEnds: datetime("trialEnds", { mode: "date", fsp: 3 }),
          prefs: json("prefs"),
          bio: mysqlText("bio"),
        },
        mysqlUserIndexes(name),
      )
      return mysqlTables({ names, users })
    },
    async create(tables) {
      for (const statement of await mysqlCreateSql(tables)) await run.pool.query(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzleMysql(run.newPool()), options),
    raw: (names) => rawReader(query, (name) => `\`${name}\``, names),
    query,
    async describe() {
      const rows = await query(
        `SELECT TABLE_NAME AS \`table\`, INDEX_NAME AS \`index\`, NON_UNIQUE = 0 AS \`unique\`, COLUMN_NAME AS \`column\`
         FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 2, SEQ_IN_INDEX`,
        [],
      )
      const cascades = await query(
        `SELECT k.TABLE_NAME AS \`table\`, k.COLUMN_NAME AS \`column\` FROM information_schema.REFERENTIAL_CONSTRAINTS r
         JOIN information_schema.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = r.CONSTRAINT_SCHEMA AND k.CONSTRAINT_NAME = r.CONSTRAINT_NAME
         WHERE r.CONSTRAINT_SCHEMA = DATABASE() AND r.DELETE_RULE = 'CASCADE'`,
        [],
      )
      return {
        indexes: groupIndexes(rows.map((r) => ({ ...(r as { table: string; index: string; column: string }), unique: Number(r.unique) === 1 }))),
        cascades: cascades.map((r) => `${String(r.table)}.${String(r.column)}`),
      }
    },
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
    extendedTables(names) {
      const users = sqliteTable(names.users, { ...sqliteUserColumns(), role: sqliteText("role").notNull().default("member") }, sqliteUserIndexes(names.users))
      return sqliteTables({ names, users })
    },
    userFieldsTables(names) {
      const name = names.users
      // Plain integers and text, which Drizzle leaves as they are: 0/1, milliseconds, JSON text.
      const users = sqliteTable(
        name,
        {
          ...sqliteUserColumns(),
          role: sqliteText("role").notNull().default("member"),
          plan: sqliteText("plan_name"),
          seats: integer("seats").notNull().default(1),
          beta: integer("beta").notNull().default(0),
          trialEnds: integer("trialEnds"),
          prefs: sqliteText("prefs"),
          bio: sqliteText("bio"),
        },
        sqliteUserIndexes(name),
      )
      return sqliteTables({ names, users })
    },
    async create(tables) {
      for (const statement of await sqliteCreateSql(tables)) raw.exec(statement)
    },
    adapter: (options) => DrizzleAdapter(drizzleSqlite(open()), options),
    raw: (names) => rawReader(query, (name) => `"${name}"`, names),
    query,
    describe: async () => describeSqlite(raw),
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

/** Indexes and cascading foreign keys of a SQLite database, from its pragmas. */
export function describeSqlite(db: Database.Database): SchemaFacts {
  const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name)
  const indexes = tables.flatMap((table) =>
    (db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number }[]).map((index) => ({
      table,
      unique: index.unique === 1,
      columns: (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string }[]).map((c) => c.name),
    })),
  )
  const cascades = tables.flatMap((table) =>
    (db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { from: string; on_delete: string }[])
      .filter((key) => key.on_delete === "CASCADE")
      .map((key) => `${table}.${key.from}`),
  )
  return { indexes, cascades }
}
