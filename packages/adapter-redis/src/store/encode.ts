/**
 * Rows to hashes and back. Each value is a string that gives back the same typed value: a `date`
 * is its milliseconds since the epoch, an `integer` its decimal digits, a `boolean` `1` or `0`, a
 * `json` value its JSON text; a null is an absent field. The keys of rows and groups are built from
 * the same strings, so a lookup value is encoded as the stored one.
 *
 * @module
 */
import { columnOf, fieldOf, primaryKeyOf, type FieldDeclaration, type ModelDeclaration, type StoredRow, type StoredValue } from "@sesame/core/adapters"

/** A row as stored: column → encoded value. */
export type Hash = Record<string, string>

/** The encoding of a value compared with stored ones (a condition's, a key's). */
export function lookupPart(value: string | number | boolean | Date): string {
  if (value instanceof Date) return String(value.getTime())
  if (typeof value === "boolean") return value ? "1" : "0"
  return String(value)
}

function fits(field: FieldDeclaration, value: StoredValue): boolean {
  switch (field.type) {
    case "string":
    case "text":
      return typeof value === "string"
    case "integer":
      return Number.isSafeInteger(value)
    case "boolean":
      return typeof value === "boolean"
    case "date":
      return value instanceof Date && !Number.isNaN(value.getTime())
    case "json":
      return true
  }
}

/** A non-null value of field `name` as stored; a `TypeError` when it is not of the field's type. */
export function encodeValue(model: ModelDeclaration, name: string, value: StoredValue): string {
  const field = fieldOf(model, name)
  if (value === null || !fits(field, value)) {
    throw new TypeError(`Model "${model.name}": "${name}" must be ${field.optional ? "null or " : ""}of type ${field.type}.`)
  }
  return field.type === "json" ? JSON.stringify(value) : lookupPart(value as string | number | boolean | Date)
}

function decodeValue(field: FieldDeclaration, text: string): StoredValue {
  switch (field.type) {
    case "string":
    case "text":
      return text
    case "integer":
      return Number(text)
    case "boolean":
      return text === "1"
    case "date":
      return new Date(Number(text))
    case "json":
      return JSON.parse(text) as StoredValue
  }
}

/** The hash of a complete row (see `completeRow`): its non-null values by column. */
export function encodeRow(model: ModelDeclaration, row: StoredRow): Hash {
  const hash: Hash = {}
  for (const name of Object.keys(model.fields)) {
    const value = row[name]
    if (value !== null && value !== undefined) hash[columnOf(model, name)] = encodeValue(model, name, value)
  }
  return hash
}

/** The row a hash holds, every declared field present (null when absent). */
export function decodeRow(model: ModelDeclaration, hash: Hash): StoredRow {
  const row: StoredRow = {}
  for (const [name, field] of Object.entries(model.fields)) {
    const text = hash[columnOf(model, name)]
    row[name] = text === undefined ? null : decodeValue(field, text)
  }
  return row
}

/**
 * The row a create stores: `data` (no unknown field) with declared defaults for what it leaves
 * out; a `TypeError` when a required field has no value. A `date` default is read by `new Date`.
 */
export function completeRow(model: ModelDeclaration, data: StoredRow): StoredRow {
  for (const name of Object.keys(data)) fieldOf(model, name)
  const row: StoredRow = {}
  for (const [name, field] of Object.entries(model.fields)) {
    let value = data[name]
    if (value === undefined && field.default !== undefined) value = field.type === "date" ? new Date(field.default as string | number) : field.default
    if ((value === undefined || value === null) && !field.optional) throw new TypeError(`Model "${model.name}" needs a value for "${name}".`)
    row[name] = value ?? null
  }
  return row
}

/** The columns `values` set, encoded (null clears); a `TypeError` for a primary key field. */
export function changesOf(model: ModelDeclaration, values: StoredRow): Record<string, string | null> {
  const set: Record<string, string | null> = {}
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue
    if (primaryKeyOf(model).includes(name)) throw new TypeError(`The primary key of model "${model.name}" cannot be changed.`)
    set[columnOf(model, name)] = value === null && fieldOf(model, name).optional ? null : encodeValue(model, name, value)
  }
  return set
}
