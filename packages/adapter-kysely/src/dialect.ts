/**
 * Which SQL dialect a Kysely instance speaks, told by its dialect adapter's class (Kysely's
 * `PostgresAdapter`, `MysqlAdapter` or `SqliteAdapter`, which third-party dialects for those
 * databases extend), and what differs per dialect: the migrations (`@sesame/sql-common`'s, the
 * ones the other SQL adapters run), how values are passed, whether writes can return their row,
 * and how long a table name may be.
 *
 * Values: node-postgres takes `Date`s and booleans as they are. MySQL's `DATETIME(3)` columns hold
 * UTC, written as `YYYY-MM-DD hh:mm:ss.fff` text, so that the pool's `timezone` (which mysql2
 * applies to `Date` parameters) changes nothing. SQLite stores dates as milliseconds since the
 * epoch and flags as 0 or 1 (better-sqlite3 binds neither dates nor booleans).
 *
 * @module
 */
import {
  mysqlMigrations,
  pgMigrations,
  sqliteMigrations,
  type Migration,
  type UpdateDialect,
} from "@sesame/sql-common"
import { MysqlAdapter, PostgresAdapter, SqliteAdapter, type Kysely } from "kysely"

export type DialectName = "postgres" | "mysql" | "sqlite"

export interface Dialect {
  name: DialectName
  /**
   * How `@sesame/sql-common` writes this dialect's partial `UPDATE`, values converted by `param`;
   * `returning` says whether a write can return its row (MySQL's are read back instead).
   */
  statements: UpdateDialect
  /** A value as this dialect's driver is to receive it. */
  param(value: unknown): unknown
  /** The longest table name accepted: room for the index names derived from it (see `tableNames`). */
  maxNameLength: number
  /** The schema, the same as the dialect's own Sesame adapter runs. */
  migrations: readonly Migration[]
}

const asIs = (value: unknown): unknown => value ?? null

/** A `DATETIME(3)` value in UTC. */
const utcText = (date: Date) => date.toISOString().slice(0, 23).replace("T", " ")

const postgres: Dialect = {
  name: "postgres",
  statements: { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true, toParameter: asIs },
  param: asIs,
  maxNameLength: 48,
  migrations: pgMigrations,
}

const mysqlParam = (value: unknown): unknown => (value instanceof Date ? utcText(value) : typeof value === "boolean" ? Number(value) : asIs(value))

const mysql: Dialect = {
  name: "mysql",
  statements: { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false, toParameter: mysqlParam },
  param: mysqlParam,
  maxNameLength: 48,
  migrations: mysqlMigrations,
}

const sqliteParam = (value: unknown): unknown => (value instanceof Date ? value.getTime() : typeof value === "boolean" ? Number(value) : asIs(value))

const sqlite: Dialect = {
  name: "sqlite",
  statements: { quote: (name) => `"${name}"`, placeholder: () => "?", returning: true, toParameter: sqliteParam },
  param: sqliteParam,
  // SQLite has no identifier length limit; 63 is what @sesame/adapter-sqlite accepts.
  maxNameLength: 63,
  migrations: sqliteMigrations,
}

/**
 * The dialect of `db`. Throws a `TypeError` for anything but a Kysely instance on PostgreSQL,
 * MySQL/MariaDB or SQLite.
 */
export function dialectOf<DB>(db: Kysely<DB>, caller: string): Dialect {
  const getExecutor = (db as { getExecutor?: unknown } | null)?.getExecutor
  if (typeof getExecutor !== "function") {
    throw new TypeError(`${caller}: expected a Kysely instance (new Kysely({ dialect })), got ${describe(db)}.`)
  }
  // Kysely's own Migrator reads the dialect this way; the executor is the instance's, whatever its plugins.
  const adapter: unknown = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return postgres
  if (adapter instanceof MysqlAdapter) return mysql
  if (adapter instanceof SqliteAdapter) return sqlite
  throw new TypeError(
    `${caller}: the Kysely instance's dialect (${describe(adapter)}) is not supported; use PostgreSQL (PostgresDialect), MySQL or MariaDB (MysqlDialect), or SQLite (SqliteDialect).`,
  )
}

/** What `value` is, never what it holds (a connection string carries a password). */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value !== "object") return `a ${typeof value}`
  return value.constructor?.name ? `a ${value.constructor.name}` : "an object"
}
