/**
 * Creating and upgrading the schema. `migrate` applies the migrations a database has not seen, in
 * one immediate transaction (so two processes migrating the same file cannot both apply one), and
 * records each in the migrations table. Run twice, the second run applies nothing.
 *
 * @module
 */
import Database from "better-sqlite3"
import { migrations, tableNames, type TableNames } from "./schema.js"

export interface MigrateOptions {
  /** Table names, when they differ from `sesame_users`, `sesame_accounts`, … */
  tables?: Partial<TableNames>
  /** The table recording applied migrations. Default `sesame_migrations`. */
  migrationsTable?: string
}

export interface MigrationResult {
  /** The migrations this call applied (empty when the schema was up to date). */
  applied: { version: number; description: string }[]
  /** The schema version after the call. */
  version: number
}

/** Opens `database` when it is a path (`:memory:` included). */
export function openDatabase(database: Database.Database | string): Database.Database {
  return typeof database === "string" ? new Database(database) : database
}

/** Applies the schema migrations `database` lacks. Idempotent. */
export function migrate(database: Database.Database | string, options: MigrateOptions = {}): MigrationResult {
  const db = openDatabase(database)
  const t = tableNames(options.tables)
  const log = tableNames({ users: options.migrationsTable ?? "sesame_migrations" }).users
  db.exec(`CREATE TABLE IF NOT EXISTS "${log}" ("version" INTEGER PRIMARY KEY NOT NULL, "description" TEXT NOT NULL, "appliedAt" INTEGER NOT NULL)`)
  const run = db.transaction(() => {
    const row = db.prepare(`SELECT MAX("version") AS "version" FROM "${log}"`).get() as { version: number | null }
    const current = row.version ?? 0
    const applied: MigrationResult["applied"] = []
    for (const migration of migrations) {
      if (migration.version <= current) continue
      db.exec(migration.sql(t as TableNames))
      db.prepare(`INSERT INTO "${log}" ("version", "description", "appliedAt") VALUES (?, ?, ?)`).run(migration.version, migration.description, Date.now())
      applied.push({ version: migration.version, description: migration.description })
    }
    return { applied, version: Math.max(current, ...applied.map((m) => m.version)) }
  })
  return run.immediate()
}
