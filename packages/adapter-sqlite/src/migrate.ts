/**
 * Creating and upgrading the schema. `migrate` applies the migrations a database has not seen, in
 * one immediate transaction (so two processes migrating the same file cannot both apply one), and
 * records each in the migrations table. Run twice, the second run applies nothing.
 *
 * @module
 */
import Database from "better-sqlite3"
import { defaultMigrationsTable, identifier, pending, sqliteMigrationsTableSql, type MigrateOptions, type MigrationResult } from "@sesame/sql-common"
import { migrations, tableNames } from "./schema.js"

export type { MigrateOptions, MigrationResult } from "@sesame/sql-common"

/** Opens `database` when it is a path (`:memory:` included). */
export function openDatabase(database: Database.Database | string): Database.Database {
  return typeof database === "string" ? new Database(database) : database
}

/** Applies the schema migrations `database` lacks. Idempotent. */
export function migrate(database: Database.Database | string, options: MigrateOptions = {}): MigrationResult {
  const db = openDatabase(database)
  const t = tableNames(options.tables)
  const log = identifier("migrationsTable", options.migrationsTable ?? defaultMigrationsTable, 63)
  db.exec(sqliteMigrationsTableSql(log))
  const run = db.transaction(() => {
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
  return run.immediate()
}
