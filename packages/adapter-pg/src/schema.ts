/**
 * The PostgreSQL schema: `@sesame/sql-common`'s migrations for PostgreSQL (the tables, keys and
 * types are described there), the same that `@sesame/adapter-kysely` applies on PostgreSQL.
 *
 * @module
 */
import { pgMigrations, schemaText, tableNames as sharedTableNames, type Migration, type TableNames } from "@sesame/sql-common"

export { defaultTableNames, type TableNames } from "@sesame/sql-common"

/** The table names with defaults, checked to be plain identifiers of at most 48 characters. */
export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  return sharedTableNames(overrides, 48)
}

/** Every schema change, in order. */
export const migrations: readonly Migration[] = pgMigrations

/** The whole schema as SQL, for `sesame schema --adapter pg`. */
export function schema(overrides: Partial<TableNames> = {}): string {
  return schemaText(migrations, tableNames(overrides))
}
