/**
 * The SQLite schema: `@sesame/sql-common`'s migrations for SQLite (the tables and types are
 * described there), the same that `@sesame/adapter-kysely` applies on SQLite. Migrations are
 * numbered and recorded in `sesame_migrations`, so `migrate` is idempotent.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import {
  modelSchemaText,
  schemaText,
  sqliteMigrations,
  tableNames as sharedTableNames,
  tableOverrides,
  type Migration,
  type TableNames,
  type TableOverrides,
} from "@sesame/sql-common"

export { defaultTableNames, type TableNames } from "@sesame/sql-common"

/** The table names with defaults, checked to be plain identifiers (they are interpolated into SQL). */
export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  // SQLite has no identifier length limit; 63 matches what the adapter always accepted.
  return sharedTableNames(overrides, 63)
}

/** Every schema change, in order. */
export const migrations: readonly Migration[] = sqliteMigrations

/**
 * The whole schema as SQL, for `sesame schema --adapter sqlite`: the numbered migrations, then the
 * tables of `models` (declared models) as `migrate(…, { models })` makes them on an empty database.
 */
export function schema(overrides: TableOverrides = {}, models: readonly ModelDeclaration[] = []): string {
  const t = tableNames(overrides)
  const text = schemaText(migrations, t)
  return models.length === 0 ? text : `${text}\n${modelSchemaText("sqlite", models, { tables: tableOverrides(overrides), usersTable: t.users })}`
}
