/**
 * Values between the store and each dialect's columns, by field type:
 *
 * | type    | PostgreSQL       | MySQL/MariaDB            | SQLite            |
 * |---------|------------------|--------------------------|-------------------|
 * | string  | `TEXT`           | `VARCHAR(255)`           | `TEXT`            |
 * | text    | `TEXT`           | `MEDIUMTEXT`             | `TEXT`            |
 * | integer | `BIGINT`         | `BIGINT`                 | `INTEGER`         |
 * | boolean | `BOOLEAN`        | `BOOLEAN` (`TINYINT(1)`) | `INTEGER` 0 or 1  |
 * | date    | `TIMESTAMPTZ(3)` | `DATETIME(3)`, UTC       | `INTEGER`, ms     |
 * | json    | `TEXT`           | `MEDIUMTEXT`             | `TEXT`            |
 *
 * the types of Sesame's own tables, so a model can map onto one of them. JSON is its text on every
 * dialect (`JSON.stringify` in, `JSON.parse` out), so it behaves the same everywhere. MySQL's dates
 * go in as UTC `YYYY-MM-DD hh:mm:ss.fff` text, as `@sesame/adapter-mysql` writes them, so the
 * pool's and the server's time zones change nothing; `readDate` reads whatever a driver returns.
 *
 * @module
 */
import type { FieldDeclaration, FieldType, ModelDeclaration, StoredRow, StoredValue } from "@sesame/core/adapters"
import { columnOf } from "@sesame/core/adapters"
import { readDate, type Row } from "../rows.js"
import type { SqlDialect } from "./types.js"

/** Each field type's column type, per dialect. */
const columnTypes: Readonly<Record<SqlDialect, Readonly<Record<FieldType, string>>>> = {
  pg: { string: "TEXT", text: "TEXT", integer: "BIGINT", boolean: "BOOLEAN", date: "TIMESTAMPTZ(3)", json: "TEXT" },
  mysql: { string: "VARCHAR(255)", text: "MEDIUMTEXT", integer: "BIGINT", boolean: "BOOLEAN", date: "DATETIME(3)", json: "MEDIUMTEXT" },
  sqlite: { string: "TEXT", text: "TEXT", integer: "INTEGER", boolean: "INTEGER", date: "INTEGER", json: "TEXT" },
}

/** The SQL type of `field`'s column on `dialect` (`TEXT`, `VARCHAR(255)`, `TIMESTAMPTZ(3)`, …), as the model DDL makes it. */
export function fieldSqlType(dialect: SqlDialect, field: Pick<FieldDeclaration, "type">): string {
  return columnTypes[dialect][field.type]
}

function wrongType(model: ModelDeclaration, name: string, field: FieldDeclaration, value: unknown): TypeError {
  const got = value instanceof Date ? "an invalid Date" : typeof value
  return new TypeError(`Model "${model.name}": field "${name}" holds a ${field.type}; got ${got}.`)
}

/** A date field's value as a `Date`: a `Date`, milliseconds since the epoch, or a date string. */
function toDate(value: unknown): Date | null {
  const date = value instanceof Date ? value : typeof value === "number" || typeof value === "string" ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date : null
}

/** A `DATETIME(3)` value in UTC. */
const utcText = (date: Date) => date.toISOString().slice(0, 23).replace("T", " ")

/** The value of field `name` as the dialect's driver is to receive it; a wrong type is a `TypeError`. */
export function encode(dialect: SqlDialect, model: ModelDeclaration, name: string, value: unknown): unknown {
  const field = model.fields[name]!
  if (value === null) return null
  switch (field.type) {
    case "string":
    case "text":
      if (typeof value !== "string") throw wrongType(model, name, field, value)
      return value
    case "integer":
      if (!Number.isSafeInteger(value)) throw wrongType(model, name, field, value)
      return value
    case "boolean":
      if (typeof value !== "boolean") throw wrongType(model, name, field, value)
      return dialect === "pg" ? value : Number(value)
    case "date": {
      const date = toDate(value)
      if (!date) throw wrongType(model, name, field, value)
      return dialect === "pg" ? date : dialect === "mysql" ? utcText(date) : date.getTime()
    }
    case "json":
      return JSON.stringify(value)
  }
}

/** A stored value of `field` as the store returns it. */
export function decode(field: FieldDeclaration, value: unknown): StoredValue {
  if (value === null || value === undefined) return null
  switch (field.type) {
    case "string":
    case "text":
      return String(value)
    case "integer":
      return Number(value)
    case "boolean":
      return Number(value) !== 0
    case "date":
      return readDate(value)
    case "json":
      return JSON.parse(String(value)) as StoredValue
  }
}

/** A row of `model`'s table as the store returns it: every declared field, by field name. */
export function readRow(model: ModelDeclaration, row: Row): StoredRow {
  return Object.fromEntries(Object.entries(model.fields).map(([name, field]) => [name, decode(field, row[columnOf(model, name)])]))
}

/** The field's `default` as an SQL literal of the dialect (for `DEFAULT` in a column definition). */
export function defaultLiteral(dialect: SqlDialect, model: ModelDeclaration, name: string): string {
  const value = encode(dialect, model, name, model.fields[name]!.default)
  if (typeof value === "number") return String(value)
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE"
  const text = value instanceof Date ? value.toISOString() : String(value)
  // MySQL reads a backslash in a string literal as an escape (unless NO_BACKSLASH_ESCAPES).
  const escaped = (dialect === "mysql" ? text.replace(/\\/g, "\\\\") : text).replace(/'/g, "''")
  return `'${escaped}'`
}
