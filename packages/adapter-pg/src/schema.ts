/**
 * The PostgreSQL schema: `@sesame/sql-common`'s migrations for PostgreSQL (the tables, keys and
 * types are described there), the same that `@sesame/adapter-kysely` applies on PostgreSQL.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import {
  modelSchemaText,
  pgMigrations,
  schemaText,
  tableNames as sharedTableNames,
  tableOverrides,
  type Migration,
  type TableNames,
  type TableOverrides,
} from "@sesame/sql-common"

export { defaultTableNames, type TableNames } from "@sesame/sql-common"

/** The table names with defaults, checked to be plain identifiers of at most 48 characters. */
export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  return sharedTableNames(overrides, 48)
}

/** Every schema change, in order. */
export const migrations: readonly Migration[] = pgMigrations

/**
 * The whole schema as SQL, for `sesame schema --adapter pg`: the numbered migrations, then the
 * tables of `models` (declared models) as `migrate(…, { models })` makes them on an empty database.
 */
export function schema(overrides: TableOverrides = {}, models: readonly ModelDeclaration[] = []): string {
  const t = tableNames(overrides)
  const text = schemaText(migrations, t)
  return models.length === 0 ? text : `${text}\n${modelSchemaText("pg", models, { tables: tableOverrides(overrides), usersTable: t.users })}`
}
