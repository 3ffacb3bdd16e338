/**
 * For the tests of declared models on the real servers: a fresh database of each dialect (a
 * PostgreSQL schema, a MariaDB database, an SQLite file), its numbered migrations applied, with
 * the adapter's runner and the adapter itself (to make users and signing keys).
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import type { Adapter } from "@sesame/core/adapters"
import { Gate, type Row, type SqlDialect, type SqlRunner } from "@sesame/sql-common"
import PostgresAdapter, { migrate as migratePg } from "@sesame/adapter-pg"
import MysqlAdapter, { migrate as migrateMysql } from "@sesame/adapter-mysql"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { testSchema } from "../../adapter-pg/test/database.js"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { pgRunner } from "../../adapter-pg/src/runner.js"
import { mysqlRunner } from "../../adapter-mysql/src/runner.js"
import { sqliteRunner } from "../../adapter-sqlite/src/runner.js"

export interface Server {
  dialect: SqlDialect
  runner: SqlRunner
  adapter: Adapter
  /** The names of `table`'s indexes, sorted. */
  indexNames(table: string): Promise<string[]>
  /** The columns of `table`'s rows as a SELECT returns them. */
  rows(table: string): Promise<Row[]>
  /** The placeholder of the `n`-th parameter. */
  placeholder(n: number): string
  close(): Promise<void>
}

const indexesSql: Record<SqlDialect, string> = {
  pg: `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`,
  mysql: "SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
  sqlite: `SELECT name FROM pragma_index_list(?)`,
}

function server(dialect: SqlDialect, runner: SqlRunner, adapter: Adapter, close: () => Promise<void>): Server {
  return {
    dialect,
    runner,
    adapter,
    indexNames: async (table) => (await runner.run(indexesSql[dialect], [table])).rows.map((r) => String(r.name)).sort(),
    rows: async (table) => (await runner.run(`SELECT * FROM ${table}`, [])).rows,
    placeholder: (n) => (dialect === "pg" ? `$${n}` : "?"),
    close,
  }
}

/** A fresh database of `dialect`, migrated to the current version, with room for `connections` at once. */
export async function openServer(dialect: SqlDialect, label: string, connections = 10): Promise<Server> {
  if (dialect === "pg") {
    const schema = testSchema(label)
    await schema.create()
    const pool = schema.pool({ max: connections })
    await migratePg(pool)
    return server(dialect, pgRunner(pool), PostgresAdapter(pool), () => schema.drop())
  }
  if (dialect === "mysql") {
    const database = testDatabase(label)
    await database.create()
    const pool = database.pool({ connectionLimit: connections })
    await migrateMysql(pool)
    return server(dialect, mysqlRunner(pool), MysqlAdapter(pool), () => database.drop())
  }
  const db = new Database(join(mkdtempSync(join(tmpdir(), `sesame-${label}-`)), "models.db"))
  const adapter = SqliteAdapter(db)
  return server(dialect, sqliteRunner(db, new Gate()), adapter, async () => void db.close())
}
