/**
 * The app's user fields (`user.fields` of the configuration `--plugin` imports) for `sesame migrate`
 * and `sesame schema`: their model of the users table (the core's `userModel`), the name of that
 * table, and the SQL that adds the fields' columns and indexes to it.
 *
 * `sesame schema --format sql` prints them as `ALTER TABLE … ADD COLUMN` and `CREATE INDEX` after
 * the migrations have made the users table, not inside its `CREATE TABLE`: the statements are those
 * of `@sesame/sql-common` that `migrate` runs (`addColumnStatements`, `modelIndexes`, `indexSql`),
 * so the printed SQL is what `migrate` does to a new database, decided in one place, and the
 * migrations' own text stays as every database got it.
 *
 * @module
 */
import { checkModel, resolveUserFields, type ModelDeclaration, type UserFieldDeclarations } from "@sesame/core/adapters"
import { addColumnStatements, defaultTableNames, indexSql, modelIndexes, type SqlDialect } from "@sesame/sql-common"
import { usageError } from "./errors.js"
import { usersTableColumns } from "./schema/tables.js"

/**
 * The model of the users table for `fields` (declared by the module `specifier`), checked by the
 * core's own rules (`resolveUserFields`, as the app checks them at start-up); a mistake in the
 * declaration is a usage error naming the field.
 */
export function userFieldsModel(fields: UserFieldDeclarations, specifier: string): ModelDeclaration {
  try {
    return checkModel(resolveUserFields({ fields }).model!)
  } catch (error) {
    throw error instanceof TypeError ? usageError(`--plugin ${specifier}: ${error.message}`) : error
  }
}

/**
 * The statements that add the user fields' columns and indexes to the users table (`tables.users`,
 * else Sesame's default name), as SQL text to follow the adapter's `schema()`.
 */
export function userFieldsSql(dialect: SqlDialect, model: ModelDeclaration, tables: Readonly<Record<string, string>>): string {
  const usersTable = tables.users ?? defaultTableNames.users
  const options = { tables, usersTable }
  const added = Object.keys(model.fields).filter((name) => !usersTableColumns.includes(name))
  const statements = [
    ...added.flatMap((name) => addColumnStatements(dialect, model, name, options)),
    ...modelIndexes(model, usersTable).map((index) => indexSql(dialect, usersTable, index)),
  ]
  return `-- user fields (user.fields), added to the users table\n${statements.map((s) => `${s};`).join("\n\n")}\n`
}
