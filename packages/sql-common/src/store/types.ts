/**
 * The shapes of the generic SQL store: the dialect, the runner an adapter gives it (its driver,
 * pool and transactions behind two methods), and the options of the store and of the migration
 * from declarations.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import type { MigrateOptions, MigrationResult } from "../migrations.js"
import type { Row } from "../rows.js"
import type { TableNames } from "../tables.js"

export type SqlDialect = "pg" | "mysql" | "sqlite"

/**
 * How the store reaches the database. Values arrive already encoded for the dialect (strings,
 * numbers, null; a `Date` on PostgreSQL), so the runner passes them to its driver as they are:
 * on MySQL, dates go in as UTC `YYYY-MM-DD hh:mm:ss.fff` text, and the store reads them back as
 * text too (`CAST(… AS CHAR)`), so neither the pool's time zone nor its `dateStrings` matters.
 */
export interface SqlRunner {
  /**
   * Runs one statement with positional parameters ($1.. on pg, ? on mysql/sqlite): the rows it
   * returns and how many rows it changed (for a statement that returns rows, how many it returned).
   */
  run(sql: string, params: readonly unknown[]): Promise<{ rows: Row[]; affected: number }>
  /** Runs fn with a runner bound to one transaction (commit on resolve, rollback on throw); inside a transaction, joins it. */
  atomically<T>(fn: (runner: SqlRunner) => Promise<T>): Promise<T>
}

export interface SqlStoreOptions {
  dialect: SqlDialect
  runner: SqlRunner
  /** Table names by model name, overriding each model's `table`. */
  tables?: Readonly<Record<string, string>>
  /** The adapter's users table, which `references: { model: "user" }` points at (id column "id"). */
  usersTable: string
}

/** Where a model's table and the tables it refers to are. */
export interface ModelTableOptions {
  /** Table names by model name, overriding each model's `table`. */
  tables?: Readonly<Record<string, string>>
  /** The adapter's users table (id column "id"). */
  usersTable: string
  /** The declared models that references may name. */
  models?: readonly ModelDeclaration[]
}

/** What {@link migrateModels} did: the tables it created, and those it added columns or indexes to. */
export interface ModelMigration {
  created: string[]
  altered: string[]
}

/**
 * Table names as an SQL adapter's `tables` option takes them: its ten tables by role (`users`,
 * `sessions`, …) and declared models' tables by model name (`signInRecord`), in one map.
 */
export type TableOverrides = Partial<TableNames> | Readonly<Record<string, string>>

/** An SQL adapter's `migrate` options: those of the numbered migrations, plus declared models. */
export interface SqlMigrateOptions extends Omit<MigrateOptions, "tables"> {
  /** Table names by role and by model name. */
  tables?: TableOverrides
  /** Declared models whose tables `migrate` creates or completes after the numbered migrations. */
  models?: readonly ModelDeclaration[]
}

/** What an SQL adapter's `migrate` did; `models` is there when it was given models. */
export interface SqlMigrationResult extends MigrationResult {
  models?: ModelMigration
}
