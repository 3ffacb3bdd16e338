/**
 * Tables from declarations: `migrateModels` makes each model's table when it is missing, and
 * completes one made from an earlier declaration: it adds the columns of fields declared since and
 * the indexes missing (by name; see `./ddl.ts`). It changes nothing else: a column is never
 * dropped, retyped or renamed, and a table's other columns are left alone (a model may map onto
 * part of an existing table). Run again, it finds nothing to do.
 *
 * A required field added to a table that has rows needs a `default`, which fills those rows;
 * without one, `migrateModels` refuses, naming the table and column, before it changes that table.
 * Tables are made in the order of their references (a model after the models it refers to).
 *
 * The user fields' model (`userModel`) maps onto the adapter's users table, which the numbered
 * migrations make: `migrateModels` adds its columns and indexes, and refuses when that table is
 * missing rather than make a users table of its own.
 *
 * The caller runs it in the dialect's migration lock (PostgreSQL and SQLite: in the numbered
 * migrations' transaction, so a failure changes nothing; MySQL commits DDL at once, so a run cut
 * off half-way is completed by the next).
 *
 * @module
 */
import { columnOf, isUserModel, type ModelDeclaration } from "@sesame/core/adapters"
import { userFieldColumns } from "../user-fields.js"
import { columnsOf, indexesOf, nameKey } from "./catalog.js"
import { addColumnStatements, byReferences, indexSql, modelIndexes, modelTableStatements } from "./ddl.js"
import { checkedModel, quote, tableOf } from "./names.js"
import type { ModelMigration, SqlDialect, SqlRunner } from "./types.js"

/**
 * Creates missing tables, adds missing columns (a required field without a default refuses, with a
 * clear Error naming table and column, when the table has rows) and missing indexes, for every
 * model; the user fields' model only completes the users table, and refuses when it is missing.
 * Idempotent; returns what it did.
 */
export async function migrateModels(
  dialect: SqlDialect,
  runner: SqlRunner,
  models: readonly ModelDeclaration[],
  options: { tables?: Readonly<Record<string, string>>; usersTable: string },
): Promise<ModelMigration> {
  const context = { ...options, models }
  const done: ModelMigration = { created: [], altered: [] }
  const run = (sql: string) => runner.run(sql, [])
  const ordered = byReferences(models.map(checkedModel))
  // Checked before any change: the user fields' columns must not be the spec's own.
  for (const model of ordered) if (isUserModel(model)) userFieldColumns(model)
  for (const model of ordered) {
    const table = tableOf(model, options.tables)
    const columns = await columnsOf(dialect, runner, table)
    if (columns.size === 0) {
      if (isUserModel(model)) {
        throw new Error(`The users table "${table}" does not exist yet, so the user fields cannot be added to it: the numbered migrations make it (check the \`tables.users\` name).`)
      }
      for (const statement of modelTableStatements(dialect, model, context)) await run(statement)
      done.created.push(table)
      continue
    }
    const missing = Object.keys(model.fields).filter((name) => !columns.has(nameKey(dialect, columnOf(model, name))))
    const unfillable = missing.filter((name) => !model.fields[name]!.optional && model.fields[name]!.default === undefined)
    if (unfillable.length > 0 && (await run(`SELECT 1 FROM ${quote(dialect, table)} LIMIT 1`)).rows.length > 0) {
      const column = columnOf(model, unfillable[0]!)
      throw new Error(
        `Cannot add the required column "${column}" to table "${table}" (field "${unfillable[0]}" of model "${model.name}"): the table has rows, and the field has no default to fill them with. Give the field a default, or make it optional.`,
      )
    }
    for (const name of missing) for (const statement of addColumnStatements(dialect, model, name, context)) await run(statement)
    const indexes = await indexesOf(dialect, runner, table)
    const added = modelIndexes(model, table).filter((index) => !indexes.has(nameKey(dialect, index.name)))
    for (const index of added) await run(indexSql(dialect, table, index))
    if (missing.length > 0 || added.length > 0) done.altered.push(table)
  }
  return done
}
