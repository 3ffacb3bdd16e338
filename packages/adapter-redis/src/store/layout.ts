/**
 * What the store derives from a model declaration once: its table (the key part of its rows), its
 * groups (the unique values claimed and the values indexed), and the schema the script reads.
 *
 * Groups: a `unique` field or unique index claims its values (`model-unique:…`); an `index`
 * field, a non-unique index and every `references` field (unique or not: a deletion finds the rows
 * that refer to a row through it) index theirs (`model-index:…`).
 *
 * @module
 */
import { checkModel, columnOf, primaryKeyOf, type ModelDeclaration } from "@sesame/core/adapters"

/** A unique or an index over one field or several. */
export interface Group {
  fields: readonly string[]
  columns: readonly string[]
  unique: boolean
}

/** A model as the store works with it, under the table the adapter gives it. */
export interface Layout {
  model: ModelDeclaration
  table: string
  primaryKey: readonly string[]
  groups: readonly Group[]
  /** The schema `lua/model-rows.ts` reads, as JSON (see `schemaOf`). */
  schema: string
}

function groupsOf(model: ModelDeclaration): Group[] {
  const groups = new Map<string, Group>()
  const add = (fields: readonly string[], unique: boolean) => {
    const columns = fields.map((name) => columnOf(model, name))
    groups.set(`${unique}:${columns.join(",")}`, { fields, columns, unique })
  }
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.unique) add([name], true)
    if ((field.index && !field.unique) || field.references) add([name], false)
  }
  for (const index of model.indexes ?? []) add(index.fields, index.unique === true)
  return [...groups.values()]
}

/** The schema as the script reads it: columns, not fields, since rows are hashes of columns. */
function schemaOf(model: ModelDeclaration, table: string, primaryKey: readonly string[], groups: readonly Group[]): string {
  return JSON.stringify({
    name: model.name,
    table,
    pk: primaryKey.map((name) => columnOf(model, name)),
    ...(model.expires === undefined ? {} : { expires: columnOf(model, model.expires) }),
    groups: groups.map(({ columns, unique }) => ({ cols: columns, unique })),
    refs: Object.entries(model.fields).flatMap(([name, field]) =>
      field.references
        ? [{ col: columnOf(model, name), field: name, model: field.references.model, setNull: field.references.onDelete === "set null" }]
        : [],
    ),
  })
}

/** The layout of a model stored as `table`; checks the declaration (`checkModel`). */
export function layoutOf(model: ModelDeclaration, table: string): Layout {
  checkModel(model)
  const primaryKey = primaryKeyOf(model)
  const groups = groupsOf(model)
  return { model, table, primaryKey, groups, schema: schemaOf(model, table, primaryKey, groups) }
}
