/**
 * A place of its own on each real database for each test file, dropped afterwards, so that files
 * running side by side (this package's or other packages') never see each other's tables: a
 * PostgreSQL schema `authjs_<label>_<random>` in the `test` database, a MariaDB database of that
 * name, a SQLite file in a temporary directory. `npm test` starts the servers when they are down
 * (scripts/lib.mjs); `SESAME_TEST_PG_URL` and `SESAME_TEST_MYSQL_URL` point elsewhere.
 *
 * Each place runs plain SQL with `?` placeholders on a connection of its own: the raw reads the
 * tests check the adapters' writes with.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import mysql from "mysql2/promise"
import pg from "pg"

const pgUrl = process.env.SESAME_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const mysqlUrl = process.env.SESAME_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test"

export type Row = Record<string, unknown>

export interface Place {
  dialect: "postgres" | "mysql" | "sqlite"
  /** Runs one statement (`?` placeholders) on the place's own connection; the rows it returns. */
  query(sql: string, params?: unknown[]): Promise<Row[]>
  /** An identifier quoted for the dialect. */
  quote(name: string): string
  /** Closes every connection made here and drops the place. */
  close(): Promise<void>
}

function placeName(label: string): string {
  return `authjs_${label}_${crypto.randomUUID().slice(0, 8)}`
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`… */
function numbered(sql: string): string {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

export interface PostgresPlace extends Place {
  schema: string
  /** A new pool whose connections use the schema as their `search_path` (ended by `close`). */
  pool(): pg.Pool
}

export async function postgresPlace(label: string): Promise<PostgresPlace> {
  const schema = placeName(label)
  const pools: pg.Pool[] = []
  const pool = () => {
    const made = new pg.Pool({ connectionString: pgUrl, options: `-c search_path=${schema}`, max: 5 })
    pools.push(made)
    return made
  }
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 })
  await admin.query(`CREATE SCHEMA "${schema}"`)
  const raw = pool()
  return {
    dialect: "postgres",
    schema,
    pool,
    query: async (sql, params = []) => (await raw.query(numbered(sql), params)).rows as Row[],
    quote: (name) => `"${name}"`,
    async close() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})))
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await admin.end()
    },
  }
}

export interface MysqlPlace extends Place {
  database: string
  /** A new pool on the database (ended by `close`). */
  pool(): mysql.Pool
}

export async function mariaDbPlace(label: string): Promise<MysqlPlace> {
  const database = placeName(label)
  const url = new URL(mysqlUrl)
  url.pathname = `/${database}`
  const pools: mysql.Pool[] = []
  const pool = () => {
    const made = mysql.createPool({ uri: url.href, connectionLimit: 5 })
    pools.push(made)
    return made
  }
  const admin = await mysql.createConnection(mysqlUrl)
  await admin.query(`CREATE DATABASE \`${database}\``)
  const raw = pool()
  return {
    dialect: "mysql",
    database,
    pool,
    query: async (sql, params = []) => {
      const [rows] = await raw.query(sql, params)
      return Array.isArray(rows) ? (rows as Row[]) : []
    },
    quote: (name) => `\`${name}\``,
    async close() {
      await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})))
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``)
      await admin.end()
    },
  }
}

export interface SqlitePlace extends Place {
  file: string
  /** A new connection to the file (closed by `close`). */
  open(): Database.Database
}

export async function sqlitePlace(label: string): Promise<SqlitePlace> {
  const dir = mkdtempSync(join(tmpdir(), `${placeName(label)}-`))
  const file = join(dir, "auth.db")
  const connections: Database.Database[] = []
  const open = () => {
    const connection = new Database(file)
    connection.pragma("journal_mode = WAL")
    connection.pragma("foreign_keys = ON")
    connections.push(connection)
    return connection
  }
  const raw = open()
  return {
    dialect: "sqlite",
    file,
    open,
    async query(sql, params = []) {
      const statement = raw.prepare(sql)
      if (statement.reader) return statement.all(...params) as Row[]
      statement.run(...params)
      return []
    },
    quote: (name) => `"${name}"`,
    async close() {
      for (const connection of connections.splice(0)) connection.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
