/**
 * The app's user fields (`user.fields`; `withUserFields`) as columns of the app's Drizzle users
 * table: each declared field is the column whose database name is the field's column
 * (`columnOf`), whatever the table's property for it is called.
 *
 * Drizzle converts what the column's type knows (a `jsonb` to its value, an SQLite `integer` in
 * `boolean` mode to a boolean); the rest is converted here, by the declared type on reads and by
 * the column's kind (`dataType`) on writes, so that a field reads back as declared whichever column
 * the app gave it: JSON kept as text is parsed, 0/1 becomes a boolean, milliseconds or text a
 * `Date`, a `bigint` a number.
 *
 * @module
 */
import { columnOf, type AdapterUser, type FieldDeclaration, type ModelDeclaration } from "@sesame/core/adapters"
import { getTableColumns, getTableName, type Column, type Table } from "drizzle-orm"
import { columnValues, toUser } from "./rows.js"
import type { Row } from "./store/types.js"

/** How the adapter writes and reads users: every column the user names (`plainUsers`), or the contract's and the declared fields only (`userFieldRows`); both read whole rows. */
export interface UserRows {
  /** The values a create or an update writes, by the table's properties, but those in `except`. */
  values(user: object, except?: readonly string[]): Row
  /** The user a row holds. */
  user(row: Row): AdapterUser
}

/** Without `withUserFields`: any field of the user that is a column of the table is written, and whole rows are read. */
export const plainUsers = (users: Table): UserRows => ({
  values: (user, except) => columnValues(users, user, except),
  user: toUser,
})

/** The contract's fields of a user. */
const contractFields = ["id", "name", "email", "emailVerified", "image"] as const

/** A declared field, and the property and column of the users table that hold it. */
interface FieldColumn {
  name: string
  field: FieldDeclaration
  key: string
  column: Column
}

/** The field's column in `users`; an `Error` naming the column to add when there is none. */
function fieldColumn(users: Table, model: ModelDeclaration, name: string): FieldColumn {
  const column = columnOf(model, name)
  const found = Object.entries(getTableColumns(users)).find(([, c]) => c.name === column)
  if (!found) {
    throw new Error(
      `DrizzleAdapter: user field "${name}" needs a column "${column}" in the users table "${getTableName(users)}", which has none. ` +
        `Add it to your Drizzle users table (and to the database: drizzle-kit), and give the adapter that table in \`tables\`.`,
    )
  }
  return { name, field: model.fields[name]!, key: found[0], column: found[1] }
}

/** `value` (not null) as the column takes it. */
function toColumn({ field, column }: FieldColumn, value: unknown): unknown {
  switch (field.type) {
    case "date": {
      const date = new Date(value as Date | string)
      if (column.dataType === "number") return date.getTime()
      return column.dataType === "string" ? date.toISOString() : date
    }
    case "boolean":
      // better-sqlite3 binds no booleans: a plain integer column takes 0 or 1.
      return column.dataType === "number" ? Number(value) : value
    case "integer":
      return column.dataType === "bigint" ? BigInt(value as number) : value
    case "json":
      return column.dataType === "json" ? value : JSON.stringify(value)
    default:
      return value
  }
}

/** The column's value (not null) as the field's declared type. */
function fromColumn({ field, column }: FieldColumn, value: unknown): unknown {
  switch (field.type) {
    case "integer":
      return Number(value)
    case "boolean":
      return typeof value === "boolean" ? value : Number(value) !== 0
    case "date":
      return value instanceof Date ? value : new Date(typeof value === "bigint" ? Number(value) : (value as string | number))
    case "json":
      return column.dataType === "json" ? value : (JSON.parse(value as string) as unknown)
    default:
      return value
  }
}

/**
 * The users of an adapter bound to `model` (`userModel`) on the app's users table: writes set the
 * contract's fields and the declared ones that the user gives (nothing else), and reads give the
 * whole row with every declared field under its name, typed as declared. Throws an `Error` for a declared
 * field whose column the table lacks.
 */
export function userFieldRows(users: Table, model: ModelDeclaration): UserRows {
  const fields = Object.keys(model.fields)
    .filter((name) => name !== "id")
    .map((name) => fieldColumn(users, model, name))
  const known = (source: object): Row => Object.fromEntries(contractFields.flatMap((name) => (Object.hasOwn(source, name) ? [[name, (source as Row)[name]]] : [])))
  return {
    values(user, except) {
      const values = columnValues(users, known(user), except)
      for (const f of fields) {
        const value = (user as Row)[f.name]
        if (value !== undefined) values[f.key] = value === null ? null : toColumn(f, value)
      }
      return values
    },
    user(row) {
      // The whole row, as the plain adapter reads it (an undeclared column still reaches the
      // callbacks' `user`), with each declared field under its name, typed as declared.
      const user: Row = { ...toUser(row) }
      for (const f of fields) {
        if (f.key !== f.name) delete user[f.key]
        user[f.name] = row[f.key] === null || row[f.key] === undefined ? null : fromColumn(f, row[f.key])
      }
      return user as unknown as AdapterUser
    },
  }
}
