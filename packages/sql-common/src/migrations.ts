/**
 * The shape of a schema migration and of what `migrate` reports, the same for every SQL dialect.
 * Each dialect keeps its own list and its own runner (locking and transactional DDL differ).
 *
 * @module
 */
import type { TableNames } from "./tables.js"

/** One numbered schema change. Append new ones; never edit a released one. */
export interface Migration {
  version: number
  description: string
  /** The statements, in order, for the given table names. */
  statements: (t: TableNames) => string[]
}

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

/** The migrations newer than `current`, in order. */
export function pending(migrations: readonly Migration[], current: number): Migration[] {
  return migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version)
}

/** The whole schema as SQL text: every migration, each headed by a comment. */
export function schemaText(migrations: readonly Migration[], t: TableNames): string {
  return migrations.map((m) => `-- ${m.version}: ${m.description}\n${m.statements(t).map((s) => `${s.trim()};`).join("\n\n")}\n`).join("\n")
}
