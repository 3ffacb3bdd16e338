/**
 * The app's user fields (`user.fields` of the configuration `--plugin` imports) for `sesame migrate`
 * and `sesame schema`: their model of the users table (the core's `userModel`), checked.
 *
 * `sesame schema --format sql` prints them as `ALTER TABLE … ADD COLUMN` and `CREATE INDEX` after
 * the migrations have made the users table, not inside its `CREATE TABLE`: `@sesame/sql-common`'s
 * `modelTableStatements` gives those statements for the user fields' model, the ones `migrate`
 * runs, so the printed SQL is what `migrate` does to a new database, decided in one place, and the
 * migrations' own text stays as every database got it.
 *
 * @module
 */
import { resolveUserFields, type ModelDeclaration, type UserFieldDeclarations } from "@sesame/core/adapters"
import { usageError } from "./errors.js"

/**
 * The model of the users table for `fields` (declared by the module `specifier`), checked by the
 * core's own rules (`resolveUserFields`, as the app checks them at start-up); a mistake in the
 * declaration is a usage error naming the field.
 */
export function userFieldsModel(fields: UserFieldDeclarations, specifier: string): ModelDeclaration {
  try {
    // `resolveUserFields` checks the model too (`checkModel`), as for the app's start-up.
    return resolveUserFields({ fields }).model!
  } catch (error) {
    throw error instanceof TypeError ? usageError(`--plugin ${specifier}: ${error.message}`) : error
  }
}
