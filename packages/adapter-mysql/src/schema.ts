/**
 * The MySQL/MariaDB schema: `@sesame/sql-common`'s migrations for MySQL (the tables, collations and
 * types are described there), the same that `@sesame/adapter-kysely` applies on MySQL.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import {
  modelSchemaText,
  mysqlMigrations,
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
export const migrations: readonly Migration[] = mysqlMigrations

/**
 * The whole schema as SQL, for `sesame schema --adapter mysql`: the numbered migrations, then the
 * tables of `models` (declared models) as `migrate(…, { models })` makes them on an empty database.
 */
export function schema(overrides: TableOverrides = {}, models: readonly ModelDeclaration[] = []): string {
  const t = tableNames(overrides)
  const text = schemaText(migrations, t)
  return models.length === 0 ? text : `${text}\n${modelSchemaText("mysql", models, { tables: tableOverrides(overrides), usersTable: t.users })}`
}
