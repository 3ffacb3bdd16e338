/**
 * Creating and upgrading the schema. `migrate` applies the migrations a database has not seen, in
 * one immediate transaction (so two processes migrating the same file cannot both apply one), and
 * records each in the migrations table. Run twice, the second run applies nothing.
 *
 * Given declared models (`{ models }`), the same transaction then makes or completes their tables
 * (`migrateModels` of `@sesame/sql-common`: missing tables, columns and indexes), and `migrate`
 * returns a promise; without models it stays synchronous, as it always was.
 *
 * @module
 */
import Database from "better-sqlite3"
import type { ModelDeclaration } from "@sesame/core/adapters"
import {
  defaultMigrationsTable,
  identifier,
  migrateModels,
  pending,
  sqliteMigrationsTableSql,
  tableOverrides,
  type SqlMigrateOptions,
  type SqlMigrationResult,
} from "@sesame/sql-common"
import { immediateTransaction, sqliteRunner } from "./runner.js"
import { migrations, tableNames } from "./schema.js"

/** `migrate`'s options: table names (by role and by model name), the migrations table, declared models. */
export type MigrateOptions = SqlMigrateOptions
/** What `migrate` applied; `models` when it was given models. */
export type MigrationResult = SqlMigrationResult

/** Opens `database` when it is a path (`:memory:` included). */
export function openDatabase(database: Database.Database | string): Database.Database {
  return typeof database === "string" ? new Database(database) : database
}

/** Applies the schema migrations `database` lacks, then makes the tables of `models`. Idempotent. */
export function migrate(database: Database.Database | string, options: MigrateOptions & { models: readonly ModelDeclaration[] }): Promise<MigrationResult>
/** Applies the schema migrations `database` lacks. Idempotent. */
export function migrate(database: Database.Database | string, options?: MigrateOptions & { models?: undefined }): MigrationResult
export function migrate(database: Database.Database | string, options?: MigrateOptions): MigrationResult | Promise<MigrationResult>
export function migrate(database: Database.Database | string, options: MigrateOptions = {}): MigrationResult | Promise<MigrationResult> {
  const db = openDatabase(database)
  const t = tableNames(options.tables)
  const log = identifier("migrationsTable", options.migrationsTable ?? defaultMigrationsTable, 63)
  db.exec(sqliteMigrationsTableSql(log))
  const run = db.transaction((): MigrationResult => {
    const row = db.prepare(`SELECT MAX("version") AS "version" FROM "${log}"`).get() as { version: number | null }
    const current = row.version ?? 0
    const applied: MigrationResult["applied"] = []
    for (const migration of pending(migrations, current)) {
      for (const statement of migration.statements(t)) db.exec(statement)
      db.prepare(`INSERT INTO "${log}" ("version", "description", "appliedAt") VALUES (?, ?, ?)`).run(migration.version, migration.description, Date.now())
      applied.push({ version: migration.version, description: migration.description })
    }
    return { applied, version: Math.max(current, ...applied.map((m) => m.version)) }
  })
  const { models } = options
  if (!models) return run.immediate()
  // Inside the open transaction, `run` is a savepoint of it.
  return immediateTransaction(db, async () => {
    const result = run()
    return { ...result, models: await migrateModels("sqlite", sqliteRunner(db), models, { tables: tableOverrides(options.tables), usersTable: t.users }) }
  })
}
