/**
 * The app's user fields (`user.fields`; `withUserFields`) in the user's own hash, beside the
 * contract's fields, each under its column (`columnOf`), encoded as the store encodes a model's
 * values (`store/encode.ts`): so they read back typed, and the scripts, which copy a user's hash
 * whole, return them with every user they read, `getSessionAndUser` included.
 *
 * A user whose hash lacks a required field (created before the field was declared, or by the
 * adapter without `withUserFields`) reads with the field's default, as `sesame migrate` fills the
 * column of existing rows on SQL.
 *
 * @module
 */
import { columnOf, type FieldDeclaration, type ModelDeclaration, type StoredRow, type StoredValue } from "@sesame/core/adapters"
import { plainUsers, toObject, userFields, type UserRecords } from "./records.js"
import { changesOf, completeRow, decodeRow, encodeRow } from "./store/encode.js"

/** The value of `field` when a record has none: its default, for a required field. */
function missing(field: FieldDeclaration): StoredValue {
  if (field.optional || field.default === undefined) return null
  return field.type === "date" ? new Date(field.default as string | number) : field.default
}

/** The values `source` gives of the fields `names` (undefined ones left out). */
function given(source: object, names: readonly string[]): StoredRow {
  const values = source as Record<string, StoredValue | undefined>
  return Object.fromEntries(names.flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]]])))
}

/**
 * The user records of an adapter bound to `model` (`userModel`): the contract's fields and the
 * declared ones. Throws an `Error` when a declared field's column is one of the contract's fields,
 * which the user's hash already holds.
 */
export function userFieldRecords(model: ModelDeclaration): UserRecords {
  const declared = Object.keys(model.fields).filter((name) => name !== "id")
  for (const name of declared) {
    const column = columnOf(model, name)
    if ((userFields as readonly string[]).includes(column)) {
      throw new Error(`RedisAdapter: user field "${name}" is stored as "${column}", one of the user's own fields; give it another column.`)
    }
  }
  return {
    // `completeRow` adds the defaults a create leaves out, as a SQL column's default would.
    create: (user) => ({ ...encodeRow(model, completeRow(model, { ...given(user, declared), id: user.id })), ...plainUsers.create(user) }),
    update: (user) => ({ ...changesOf(model, given(user, declared)), ...plainUsers.update(user) }),
    read(flat) {
      const row = decodeRow(model, toObject(flat))
      const values = Object.fromEntries(declared.map((name) => [name, row[name] ?? missing(model.fields[name]!)]))
      return { ...values, ...plainUsers.read(flat) }
    },
  }
}
