/**
 * The app's user fields (`user.fields`) as columns of the users table, for the SQL adapters'
 * `withUserFields`: which columns they are, their values as a user object gives them (encoded as
 * the generic store encodes them: SQLite dates as milliseconds, MySQL dates as UTC text, JSON as
 * text), and the user of a row with them decoded by type. Column names come from the checked
 * model only, never from a user object, so the adapters may interpolate them; a key of the user
 * that is not declared is never read.
 *
 * @module
 */
import { columnOf, isUserModel, type AdapterUser, type FieldDeclaration, type ModelDeclaration } from "@sesame/core/adapters"
import { toPrefixedUser, toUser, userColumns, type Row } from "./rows.js"
import { checkedModel, quote } from "./store/names.js"
import type { SqlDialect } from "./store/types.js"
import { decode, encode } from "./store/values.js"

/** One declared user field and the column that stores it. */
export interface UserFieldColumn {
  name: string
  column: string
  field: FieldDeclaration
  /**
   * Its name in the select list of a join (`u_f0`, `u_f1`, …), by position rather than
   * `u_<column>`: a column's name may take all of PostgreSQL's 63 characters, leaving no room.
   */
  alias: string
}

/** The users table as an SQL adapter writes and reads it: the spec's columns, and the declared fields' (none for the plain adapter). */
export interface UserTable {
  /** The declared fields, in the model's order. */
  readonly fields: readonly UserFieldColumn[]
  /** The columns `updateUser` may set: the spec's (`userColumns`), then the declared fields'. */
  readonly updateColumns: readonly string[]
  /**
   * `createUser`'s row by column: the spec's fields (an `id` made when the user has none; dates as
   * given, for the adapter's driver), then the declared fields the user gives, encoded (the others
   * are left to their columns' defaults).
   */
  insertValues(user: NewUser): Record<string, unknown>
  /** The values of `updateUser`'s `UPDATE` by column, for `updateColumns`: the spec's fields as given, the declared ones encoded. */
  updateValues(user: object): Record<string, unknown>
  /** The select list of a join on the users table aliased `u`: the spec's columns named `u_<column>`, the declared ones by their `alias` (what {@link UserTable.toJoinedUser} reads). */
  readonly joinedColumns: string
  /** The user of a row of the users table. */
  toUser(row: Row): AdapterUser
  /** The user of a joined row selected by {@link UserTable.joinedColumns}. */
  toJoinedUser(row: Row): AdapterUser
}

/** The user `createUser` is given: the spec's fields, `id` optional, and the app's user fields among its other keys. */
export type NewUser = Pick<AdapterUser, "email"> & Partial<Pick<AdapterUser, "id" | "name" | "emailVerified" | "image">>

/** The columns of the spec's user, which no declared field may take (it would be written twice). */
const specColumns = new Set(["id", ...userColumns].map((column) => column.toLowerCase()))

/**
 * The declared fields of the user fields' model (every field but `id`), each with its column. A
 * model that is not `userModel`'s, or that stores a field in one of the spec's columns, is a
 * `TypeError`.
 */
export function userFieldColumns(model: ModelDeclaration): UserFieldColumn[] {
  if (!isUserModel(checkedModel(model))) throw new TypeError(`Model "${model.name}" is not the user fields' model: make it with \`userModel\`.`)
  const fields = Object.entries(model.fields)
    .filter(([name]) => name !== "id")
    .map(([name, field], i) => ({ name, column: columnOf(model, name), field, alias: `u_f${i}` }))
  const taken = fields.find(({ column }) => specColumns.has(column.toLowerCase()))
  if (taken) throw new TypeError(`User field "${taken.name}": column "${taken.column}" is one of the users table's own; choose another.`)
  return fields
}

/**
 * The users table of an SQL adapter on `dialect`, with the declared fields of `model` (the user
 * fields' model, checked by {@link userFieldColumns}); without one, the spec's columns only.
 */
export function userTable(dialect: SqlDialect, model?: ModelDeclaration): UserTable {
  const fields = model ? userFieldColumns(model) : []
  const q = (name: string) => quote(dialect, name)
  const fieldValues = (user: object): Record<string, unknown> => {
    if (!model) return {}
    const given = user as Record<string, unknown>
    const values: Record<string, unknown> = {}
    for (const { name, column } of fields) {
      // Own properties only: what a user object inherits is not the app's data.
      const value = Object.hasOwn(given, name) ? given[name] : undefined
      if (value !== undefined) values[column] = encode(dialect, model, name, value)
    }
    return values
  }
  /** `user` with the declared fields of `row`, each read under the name `key` gives it. */
  const withFields = (user: AdapterUser, row: Row, key: (field: UserFieldColumn) => string): AdapterUser =>
    Object.assign(user, Object.fromEntries(fields.map((f) => [f.name, decode(f.field, row[key(f)])])))
  const selected = [...["id", ...userColumns].map((column) => ({ column, alias: `u_${column}` })), ...fields]
  return {
    fields,
    updateColumns: [...userColumns, ...fields.map((f) => f.column)],
    insertValues: (user) => ({
      id: user.id ?? crypto.randomUUID(),
      name: user.name ?? null,
      email: user.email,
      emailVerified: user.emailVerified ?? null,
      image: user.image ?? null,
      ...fieldValues(user),
    }),
    updateValues(user) {
      const given = user as Record<string, unknown>
      return { ...Object.fromEntries(userColumns.map((column) => [column, given[column]])), ...fieldValues(user) }
    },
    joinedColumns: selected.map(({ column, alias }) => `u.${q(column)} AS ${q(alias)}`).join(", "),
    toUser: (row) => withFields(toUser(row), row, (f) => f.column),
    toJoinedUser: (row) => withFields(toPrefixedUser(row), row, (f) => f.alias),
  }
}
