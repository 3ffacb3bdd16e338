/**
 * Names in the SQL of declared models: a model's table (the app's override by model name, else the
 * model's own), quoted identifiers, and the names of indexes and constraints, derived from the
 * table and columns so that a second run finds what the first made. PostgreSQL keeps 63
 * characters of a name (MySQL 64), so a longer one keeps its head and ends in a hash of the whole.
 *
 * @module
 */
import { checkModel, isUserModel, type ModelDeclaration } from "@sesame/core/adapters"
import { defaultTableNames, identifier } from "../tables.js"
import type { SqlDialect, TableOverrides } from "./types.js"

const checked = new WeakSet<ModelDeclaration>()

/** The model, checked once (`checkModel`). */
export function checkedModel(model: ModelDeclaration): ModelDeclaration {
  if (checked.has(model)) return model
  checkModel(model)
  checked.add(model)
  return model
}

/**
 * The table of `model`: `tables[model.name]` when given (checked to be a plain identifier), else
 * `model.table`. The user fields' model (`userModel`, named `users`) is the adapter's users table:
 * `tables.users`, else the SQL adapters' default one; its own `table` is for stores without tables.
 */
export function tableOf(model: ModelDeclaration, tables: Readonly<Record<string, string>> | undefined): string {
  const override = tables?.[model.name]
  if (override !== undefined) return identifier(`tables.${model.name}`, override, 48)
  return isUserModel(model) ? defaultTableNames.users : model.table
}

/** An identifier, quoted (every name here is a checked plain identifier). */
export function quote(dialect: SqlDialect, name: string): string {
  return dialect === "mysql" ? `\`${name}\`` : `"${name}"`
}

const maxName = 63

/** FNV-1a, 32 bits: a short, stable tag for a name that had to be cut. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, "0")
}

/** `<table>_<columns>_<suffix>` (`_key` unique, `_idx` index, `_fkey` foreign key), at most 63 characters. */
export function derivedName(table: string, columns: readonly string[], suffix: "key" | "idx" | "fkey"): string {
  const name = `${table}_${columns.join("_")}_${suffix}`
  if (name.length <= maxName) return name
  const tail = `_${hash(name)}_${suffix}`
  return `${name.slice(0, maxName - tail.length)}${tail}`
}

/**
 * An SQL adapter's `tables` option as the store and `migrateModels` take it: the names given, by
 * role or by model name. Sesame's own models are named for the roles whose tables they use
 * (`passwords`, `signingKeys`, …), so one name renames the table for both.
 */
export function tableOverrides(tables: TableOverrides = {}): Readonly<Record<string, string>> {
  const given: Readonly<Record<string, string | undefined>> = tables
  return Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined))
}
