/**
 * The database servers the tests run against. Each test run gets a PostgreSQL schema, a MariaDB
 * database or a SQLite file of its own, made here and dropped by the caller. When a server is not
 * running, the helpers fail at once with the command that starts it, instead of letting every
 * test time out.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import mysql from "mysql2/promise"
import pg from "pg"

export const startPostgres = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
export const startMariaDb = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"

/** A name no other run uses (a schema, a database). */
export const runName = () => `sesame_test_${crypto.randomUUID().slice(0, 8)}`

function unreachable(server: string, address: string, error: unknown, start: string): Error {
  return new Error(`${server} is not reachable on ${address} (${(error as Error).message}). Start it with:\n  ${start}`)
}

export interface PostgresRun {
  /** A pool whose connections look names up in the run's schema first. */
  pool: pg.Pool
  schema: string
  /** The pool's connection string, for code that makes its own pool. */
  url: string
  /** Another pool like `pool` (another app instance); ended by `drop`. */
  newPool(): pg.Pool
  drop(): Promise<void>
}

/** A new schema in the `test` database, and a pool that uses it. */
export async function postgresRun(port = 5432): Promise<PostgresRun> {
  const schema = runName()
  const url = `postgres://postgres@127.0.0.1:${port}/test?options=${encodeURIComponent(`-c search_path=${schema}`)}`
  const pools: pg.Pool[] = []
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2000, max: 10 })
    // An idle client's failure (a server restart) is the pool's to report, not the process's.
    pool.on("error", () => {})
    pools.push(pool)
    return pool
  }
  const pool = newPool()
  try {
    await pool.query(`CREATE SCHEMA "${schema}"`)
  } catch (error) {
    await pool.end()
    throw unreachable("PostgreSQL", `127.0.0.1:${port}`, error, startPostgres)
  }
  return {
    pool,
    schema,
    url,
    newPool,
    async drop() {
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`)
      await Promise.all(pools.map((p) => p.end()))
    },
  }
}

export interface MariaDbRun {
  /** A pool on the run's database; dates are read as UTC, as Drizzle writes them. */
  pool: mysql.Pool
  database: string
  /** Another pool like `pool` (another app instance); ended by `drop`. */
  newPool(): mysql.Pool
  drop(): Promise<void>
}

/** A new database (utf8mb4), and a pool on it. */
export async function mariaDbRun(port = 3306): Promise<MariaDbRun> {
  const database = runName()
  const server = { host: "127.0.0.1", port, user: "root", password: "", connectTimeout: 2000 }
  let admin: mysql.Connection
  try {
    admin = await mysql.createConnection({ ...server, database: "test" })
  } catch (error) {
    throw unreachable("MariaDB", `127.0.0.1:${port}`, error, startMariaDb)
  }
  await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  await admin.end()
  const pools: mysql.Pool[] = []
  const newPool = () => {
    const pool = mysql.createPool({ ...server, database, connectionLimit: 10, timezone: "Z" })
    pools.push(pool)
    return pool
  }
  const pool = newPool()
  return {
    pool,
    database,
    newPool,
    async drop() {
      await pool.query(`DROP DATABASE \`${database}\``)
      await Promise.all(pools.map((p) => p.end()))
    },
  }
}

/** A new SQLite file in a temporary directory. */
export function sqliteFile(): string {
  return join(mkdtempSync(join(tmpdir(), "sesame-drizzle-")), "auth.db")
}
