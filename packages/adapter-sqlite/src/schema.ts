/**
 * The SQLite schema: `@sesame/sql-common`'s migrations for SQLite (the tables and types are
 * described there), the same that `@sesame/adapter-kysely` applies on SQLite. Migrations are
 * numbered and recorded in `sesame_migrations`, so `migrate` is idempotent.
 *
 * @module
 */
import { schemaText, sqliteMigrations, tableNames as sharedTableNames, type Migration, type TableNames } from "@sesame/sql-common"

export { defaultTableNames, type TableNames } from "@sesame/sql-common"

/** The table names with defaults, checked to be plain identifiers (they are interpolated into SQL). */
export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  // SQLite has no identifier length limit; 63 matches what the adapter always accepted.
  return sharedTableNames(overrides, 63)
}

/** Every schema change, in order. */
export const migrations: readonly Migration[] = sqliteMigrations

/** The whole schema as SQL, for `sesame schema --adapter sqlite`. */
export function schema(overrides: Partial<TableNames> = {}): string {
  return schemaText(migrations, tableNames(overrides))
}
