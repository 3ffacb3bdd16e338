/**
 * The DDL of a declared model, per dialect: its table (columns, primary key, foreign keys), its
 * indexes, and the statements that add a column to a table made before the field was declared.
 *
 * - A field that refers to a user or a declared model is a foreign key to that table's key, which
 *   deletes (`CASCADE`) or clears (`SET NULL`) the row with the one it refers to, and it is
 *   indexed, so that the deletion finds the referring rows without a scan. It must have the type of
 *   the key it refers to (a user's id is a `string`): on MySQL a foreign key needs the same column
 *   type, and `VARCHAR(255)` under the tables' `utf8mb4_bin` is what the users table has.
 * - Unique fields and indexes are `CREATE [UNIQUE] INDEX` statements beside the table, named
 *   `<table>_<columns>_key` or `_idx`, so that `migrateModels` finds by name which ones are missing.
 * - A `default` is the column's `DEFAULT` too: adding a required field with one fills the rows
 *   already there. SQLite cannot add a `NOT NULL` column without a default even to an empty table,
 *   so there the added column checks `IS NOT NULL` instead, which holds the same rule.
 *
 * @module
 */
import { columnOf, isUserModel, primaryKeyOf, type ModelDeclaration } from "@sesame/core/adapters"
import { tableOptions } from "../schema/mysql.js"
import { checkedModel, derivedName, quote, tableOf } from "./names.js"
import type { ModelTableOptions, SqlDialect } from "./types.js"
import { defaultLiteral, fieldSqlType } from "./values.js"

/** An index of a model's table. */
export interface ModelIndex {
  name: string
  unique: boolean
  columns: string[]
}

/** A foreign key of a model's table: a field that refers to a user or to a declared model. */
export interface ModelReference {
  /** The constraint's name, `<table>_<column>_fkey`. */
  name: string
  /** The referring column. */
  column: string
  /** The table referred to, and its key column. */
  table: string
  foreignColumn: string
  onDelete: "CASCADE" | "SET NULL"
}

/** Where field `name` of `model` refers to, or null when it refers to nothing. */
function referenceOf(model: ModelDeclaration, name: string, options: ModelTableOptions): ModelReference | null {
  const field = model.fields[name]!
  if (!field.references) return null
  const where = `Model "${model.name}": field "${name}"`
  const column = columnOf(model, name)
  const constraint = { name: derivedName(tableOf(model, options.tables), [column], "fkey"), column }
  const onDelete = field.references.onDelete === "set null" ? "SET NULL" : "CASCADE"
  if (field.references.model === "user") {
    if (field.type !== "string") throw new TypeError(`${where} refers to a user, whose id is a string: declare it { type: "string" }.`)
    return { ...constraint, table: options.usersTable, foreignColumn: "id", onDelete }
  }
  const target = options.models?.find((m) => m.name === field.references!.model)
  if (!target) throw new TypeError(`${where} refers to model "${field.references.model}", which is not among the models given.`)
  checkedModel(target)
  const key = primaryKeyOf(target)
  if (key.length !== 1) throw new TypeError(`${where} refers to model "${target.name}", whose primary key has several fields; a reference needs one.`)
  const keyType = target.fields[key[0]!]!.type
  if (keyType !== field.type) throw new TypeError(`${where} refers to model "${target.name}", whose key is of type ${keyType}: declare it { type: "${keyType}" }.`)
  return { ...constraint, table: tableOf(target, options.tables), foreignColumn: columnOf(target, key[0]!), onDelete }
}

/** The foreign keys of `model`'s table, in the order of its fields; a reference the options cannot satisfy is a `TypeError`. */
export function modelReferences(model: ModelDeclaration, options: ModelTableOptions): ModelReference[] {
  return Object.keys(model.fields).flatMap((name) => referenceOf(model, name, options) ?? [])
}

/** `"col" TYPE [NOT NULL] [DEFAULT …]`; `adding`: for `ADD COLUMN` on a table that exists. */
function columnDefinition(dialect: SqlDialect, model: ModelDeclaration, name: string, adding: boolean): string {
  const field = model.fields[name]!
  const column = quote(dialect, columnOf(model, name))
  const parts = [column, fieldSqlType(dialect, field)]
  if (!field.optional) parts.push(adding && dialect === "sqlite" && field.default === undefined ? `CHECK (${column} IS NOT NULL)` : "NOT NULL")
  if (field.default !== undefined) {
    const literal = defaultLiteral(dialect, model, name)
    // MySQL takes a TEXT column's default only as an expression, in parentheses (8.0.13, MariaDB 10.2).
    parts.push(dialect === "mysql" && (field.type === "text" || field.type === "json") ? `DEFAULT (${literal})` : `DEFAULT ${literal}`)
  }
  return parts.join(" ")
}

/** `REFERENCES "t" ("id") ON DELETE …`. */
function referencesClause(dialect: SqlDialect, reference: ModelReference): string {
  return `REFERENCES ${quote(dialect, reference.table)} (${quote(dialect, reference.foreignColumn)}) ON DELETE ${reference.onDelete}`
}

const columnList = (dialect: SqlDialect, columns: readonly string[]) => columns.map((c) => quote(dialect, c)).join(", ")

/** The indexes of `model`'s table `table`: unique fields, indexed fields, declared indexes, and referring fields. */
export function modelIndexes(model: ModelDeclaration, table: string): ModelIndex[] {
  const indexes = new Map<string, ModelIndex>()
  const add = (fields: readonly string[], unique: boolean) => {
    const columns = fields.map((f) => columnOf(model, f))
    const name = derivedName(table, columns, unique ? "key" : "idx")
    indexes.set(name, { name, unique, columns })
  }
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.unique) add([name], true)
    else if (field.index) add([name], false)
  }
  for (const index of model.indexes ?? []) add(index.fields, index.unique ?? false)
  // A referring field that no index leads with gets one of its own.
  const leading = new Set([columnOf(model, primaryKeyOf(model)[0]!), ...[...indexes.values()].map((i) => i.columns[0])])
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.references && !leading.has(columnOf(model, name))) add([name], false)
  }
  return [...indexes.values()]
}

/** `CREATE [UNIQUE] INDEX`. */
export function indexSql(dialect: SqlDialect, table: string, index: ModelIndex): string {
  return `CREATE ${index.unique ? "UNIQUE " : ""}INDEX ${quote(dialect, index.name)} ON ${quote(dialect, table)} (${columnList(dialect, index.columns)})`
}

/**
 * The statements that make a model's table and indexes from nothing (used by migrate and by a
 * `schema` printer). The user fields' model has no table of its own: its statements add its
 * columns and indexes to the users table the numbered migrations make.
 */
export function modelTableStatements(dialect: SqlDialect, model: ModelDeclaration, options: ModelTableOptions): string[] {
  checkedModel(model)
  const table = tableOf(model, options.tables)
  if (isUserModel(model)) {
    const added = Object.keys(model.fields).filter((name) => name !== "id")
    return [...added.flatMap((name) => addColumnStatements(dialect, model, name, options)), ...modelIndexes(model, table).map((index) => indexSql(dialect, table, index))]
  }
  const lines = Object.keys(model.fields).map((name) => columnDefinition(dialect, model, name, false))
  const key = columnList(dialect, primaryKeyOf(model).map((f) => columnOf(model, f)))
  lines.push(dialect === "pg" ? `CONSTRAINT ${quote(dialect, `${table}_pkey`)} PRIMARY KEY (${key})` : `PRIMARY KEY (${key})`)
  for (const reference of modelReferences(model, options)) {
    lines.push(`CONSTRAINT ${quote(dialect, reference.name)} FOREIGN KEY (${quote(dialect, reference.column)}) ${referencesClause(dialect, reference)}`)
  }
  const create = `CREATE TABLE ${quote(dialect, table)} (\n  ${lines.join(",\n  ")}\n)${dialect === "mysql" ? ` ${tableOptions}` : ""}`
  return [create, ...modelIndexes(model, table).map((index) => indexSql(dialect, table, index))]
}

/**
 * The statements that add field `name`'s column to `model`'s existing table, with its foreign key
 * (SQLite adds no constraint to a table after the fact but a column's own `REFERENCES`).
 */
export function addColumnStatements(dialect: SqlDialect, model: ModelDeclaration, name: string, options: ModelTableOptions): string[] {
  const table = tableOf(model, options.tables)
  const reference = referenceOf(model, name, options)
  const definition = columnDefinition(dialect, model, name, true)
  if (dialect === "sqlite") {
    return [`ALTER TABLE ${quote(dialect, table)} ADD COLUMN ${definition}${reference ? ` CONSTRAINT ${quote(dialect, reference.name)} ${referencesClause(dialect, reference)}` : ""}`]
  }
  const add = `ALTER TABLE ${quote(dialect, table)} ADD COLUMN ${definition}`
  if (!reference) return [add]
  return [add, `ALTER TABLE ${quote(dialect, table)} ADD CONSTRAINT ${quote(dialect, reference.name)} FOREIGN KEY (${quote(dialect, reference.column)}) ${referencesClause(dialect, reference)}`]
}

/** The models, each after those it refers to; a cycle of references is a `TypeError`. */
export function byReferences(models: readonly ModelDeclaration[]): ModelDeclaration[] {
  const byName = new Map(models.map((m) => [m.name, m]))
  const ordered: ModelDeclaration[] = []
  const state = new Map<string, "visiting" | "done">()
  const visit = (model: ModelDeclaration) => {
    if (state.get(model.name) === "done") return
    if (state.get(model.name) === "visiting") throw new TypeError(`Model "${model.name}": its references make a cycle; one of them must go.`)
    state.set(model.name, "visiting")
    for (const field of Object.values(model.fields)) {
      const target = field.references && byName.get(field.references.model)
      if (target && target !== model) visit(target)
    }
    state.set(model.name, "done")
    ordered.push(model)
  }
  for (const model of models) visit(model)
  return ordered
}

/** The statements of every model's table and indexes as SQL text, for an adapter's `schema()`. */
export function modelSchemaText(dialect: SqlDialect, models: readonly ModelDeclaration[], options: Omit<ModelTableOptions, "models">): string {
  const statements = byReferences(models.map(checkedModel)).flatMap((model) => modelTableStatements(dialect, model, { ...options, models }))
  return `-- declared models\n${statements.map((s) => `${s};`).join("\n\n")}\n`
}
