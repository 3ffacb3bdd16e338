/**
 * Declared storage: a feature module says what it stores as models (fields, types, keys, indexes,
 * references, a time to live), and every database implements one generic {@link Store} once. A new
 * capability then needs no adapter code: `sesame migrate` makes its tables from the declarations,
 * and the store reads and writes them.
 *
 * The spec's operations (users, accounts, sessions, verification tokens, authenticators) stay on the
 * adapter, where an Auth.js-shaped adapter keeps working; models are for what Sesame and plugins add.
 *
 * @module
 */

/**
 * How a field is stored:
 * - `string`: short text that may be a key or indexed (`VARCHAR(255)` on MySQL, `TEXT` elsewhere);
 * - `text`: text of any length, never indexed (`TEXT`; `MEDIUMTEXT` on MySQL);
 * - `integer`: a safe integer (`BIGINT`);
 * - `boolean`;
 * - `date`: an instant, to the millisecond;
 * - `json`: any JSON value, stored as its text and read back parsed; not filterable.
 */
export type FieldType = "string" | "text" | "integer" | "boolean" | "date" | "json"

/** A stored value as the store takes and returns it. */
export type StoredValue = string | number | boolean | Date | null | JsonValue

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** One field of a model. */
export interface FieldDeclaration {
  type: FieldType
  /** May be null (or left out on create). Default false: the field is required. */
  optional?: boolean
  /** The column's name when it differs from the field's (to map a model onto an existing table). */
  column?: string
  /**
   * The value a create that leaves the field out stores, and what `sesame migrate` fills existing
   * rows with when it adds a required field to a table that has rows.
   */
  default?: string | number | boolean
  /** One row at most per value (a unique index). */
  unique?: boolean
  /** Looked up by: an index. */
  index?: boolean
  /**
   * The field holds the key of a row of another model: `user` (the adapter's users), or a declared
   * model's name, whose primary key must be one field. `cascade` (the default) deletes this row with
   * the one it refers to; `set null` (an optional field only) clears the field.
   */
  references?: { model: string; onDelete?: "cascade" | "set null" }
}

/** A model: one table (or, in a key-value store, one family of records). */
export interface ModelDeclaration {
  /** Unique among the modules of a configuration; camelCase (`signInRecord`). */
  name: string
  /** The table's default name: a plain SQL identifier (`sesame_sign_in_records`). Adapters let the app rename it by `name`. */
  table: string
  fields: Readonly<Record<string, FieldDeclaration>>
  /** The field, or fields, that identify a row. Required fields of type `string` or `integer`. */
  primaryKey: string | readonly string[]
  /** Indexes over several fields (one field says `index` or `unique` on itself). */
  indexes?: readonly { fields: readonly string[]; unique?: boolean }[]
  /**
   * A required `date` field after which a row no longer exists for reads, updates and counts (the
   * store may purge it any time), and which {@link Store.increment} restarts.
   */
  expires?: string
}

/** The values of a row, by field name. */
export type StoredRow = Record<string, StoredValue>

/**
 * Marks the conditions `op` makes. A symbol, so that no JSON (a request's body parsed) can make
 * one: a value that came from a request is compared for equality, or refused, never read as an
 * operator (`{ "ne": null }` matching every row).
 */
export const conditionBrand: unique symbol = Symbol.for("sesame.store.condition") as never

/** A comparison made with {@link op}. */
export interface Operator {
  readonly [conditionBrand]: Comparison
}

/**
 * A condition on one field: a value (equal; `null`: the field is null), or one comparison made
 * with {@link op}. Fields of type `json` cannot be compared; an object or array as a value (a row's
 * `json` value, a request's JSON) is refused at run time with a `TypeError`.
 */
export type Condition = StoredValue | Operator

type Scalar = string | number | boolean | Date

function scalar(value: unknown, what: string): Scalar | null {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date) return value
  throw new TypeError(`${what} takes a string, number, boolean, Date or null; got ${Array.isArray(value) ? "an array" : typeof value}.`)
}

const make = (comparison: Comparison): Operator => Object.freeze({ [conditionBrand]: comparison })

/**
 * The comparisons a condition may make besides equality: `{ createdAt: op.lt(cutoff) }`,
 * `{ status: op.in(["a", "b"]) }`, `{ deletedAt: op.ne(null) }`.
 */
export const op = Object.freeze({
  /** One of `values` (none: no row). */
  in: (values: readonly Scalar[]): Operator => {
    if (!Array.isArray(values) || values.some((v) => v === null)) throw new TypeError("op.in takes an array of values, without null (compare with null alone).")
    return make({ op: "in", values: values.map((v) => scalar(v, "op.in")!) })
  },
  /** Not `value` (a null field is not the value). */
  ne: (value: Scalar | null): Operator => make({ op: "ne", value: scalar(value, "op.ne") }),
  lt: (value: string | number | Date): Operator => make({ op: "lt", value: scalar(value, "op.lt") }),
  lte: (value: string | number | Date): Operator => make({ op: "lte", value: scalar(value, "op.lte") }),
  gt: (value: string | number | Date): Operator => make({ op: "gt", value: scalar(value, "op.gt") }),
  gte: (value: string | number | Date): Operator => make({ op: "gte", value: scalar(value, "op.gte") }),
})

/** Conditions that must all hold. An empty one matches every row. */
export type Where = Readonly<Record<string, Condition>>

/** What {@link Store.findMany} returns. */
export interface FindManyQuery {
  where?: Where
  /** Sort keys, the first first. Rows that tie on all of them come in no particular order. */
  orderBy?: readonly { field: string; direction?: "asc" | "desc" }[]
  /** At most this many rows. */
  limit?: number
  /** Skips this many rows first (with `orderBy`, for paging). */
  offset?: number
}

/**
 * The generic store a database implements once. Every method takes the model it works on, and
 * rows keyed by field name with values of the declared types (a `date` is a `Date`, a `json` its
 * parsed value, a missing optional value `null`).
 *
 * Rules every implementation keeps (the conformance suite, `@sesame/adapter-test`, checks them):
 * - a create that would repeat a primary key or a unique value throws {@link StoreConflict}, and
 *   stores nothing;
 * - a row whose `expires` has passed does not exist for `findOne`, `findMany`, `count` and `update`;
 * - `increment` is atomic: of concurrent increments of one row, each counts;
 * - a row referring to a deleted user (or declared model's row) goes with it (`cascade`).
 */
export interface Store {
  /** Stores a new row (declared defaults fill left-out fields) and returns it as stored. */
  create(model: ModelDeclaration, data: StoredRow): Promise<StoredRow>
  /** The first row that matches, or null. */
  findOne(model: ModelDeclaration, where: Where): Promise<StoredRow | null>
  findMany(model: ModelDeclaration, query?: FindManyQuery): Promise<StoredRow[]>
  /** Sets `values` on every row that matches; returns how many. A primary key cannot be changed. */
  update(model: ModelDeclaration, where: Where, values: StoredRow): Promise<number>
  /** Deletes every row that matches (expired ones too); returns how many. */
  delete(model: ModelDeclaration, where: Where): Promise<number>
  count(model: ModelDeclaration, where?: Where): Promise<number>
  /**
   * Adds `by` (default 1) to the integer `field` of the row with primary key `key`, in one atomic
   * step, and returns the row after: of concurrent increments, each gets its own count. A missing
   * row, or one whose `expires` has passed, is replaced by `create` (which holds the other required
   * fields) with `field` set to `by`. `set` holds values written at every increment, on a live row
   * as on a new one (a sliding expiry: `set: { expires }`).
   */
  increment(model: ModelDeclaration, key: StoredRow, field: string, options: { by?: number; create: StoredRow; set?: StoredRow }): Promise<StoredRow>
  /**
   * Runs `fn` with a store bound to one transaction: committed when `fn` resolves, rolled back when
   * it throws. A store without transactions (Redis) runs `fn` directly and says so in its README.
   */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T>
}

/** A create repeated a primary key or a unique value: nothing was stored. */
export class StoreConflict extends Error {
  override readonly name = "StoreConflict"
  constructor(
    readonly model: string,
    options?: ErrorOptions,
  ) {
    super(`A "${model}" row with this key or unique value already exists.`, options)
  }
}

/**
 * Names a declared model may not take: what `references` means by the user, and the roles of the
 * spec's tables, which adapters rename by the same names as models (`tables`). Sesame's own
 * models' names are refused for plugins where the configuration is resolved.
 */
export const reservedModelNames: ReadonlySet<string> = new Set(["user", "users", "accounts", "sessions", "verificationTokens", "authenticators"])

/**
 * Marks the one model that may take the name `users`: the app's user fields (`user.fields`) as a
 * model of the users table, made by the core (`userModel`). `sesame migrate` adds its columns to
 * the users table and never creates that table.
 */
export const userModelBrand: unique symbol = Symbol.for("sesame.store.userModel") as never

/** Whether `model` is the user fields' model (`userModel`). */
export function isUserModel(model: ModelDeclaration): boolean {
  return (model as { [userModelBrand]?: boolean })[userModelBrand] === true
}

/** The primary key's fields as a list. */
export function primaryKeyOf(model: ModelDeclaration): readonly string[] {
  return typeof model.primaryKey === "string" ? [model.primaryKey] : model.primaryKey
}

/** The column that stores `field`. */
export function columnOf(model: ModelDeclaration, field: string): string {
  const declared = Object.hasOwn(model.fields, field) ? model.fields[field] : undefined
  if (!declared) throw new TypeError(`Model "${model.name}" has no field "${field}".`)
  return declared.column ?? field
}

/** The comparison a condition makes, in one shape every store reads. */
export type Comparison =
  | { op: "eq"; value: string | number | boolean | Date | null }
  | { op: "in"; values: readonly (string | number | boolean | Date)[] }
  | { op: "ne" | "lt" | "lte" | "gt" | "gte"; value: string | number | boolean | Date | null }

/**
 * Reads a condition: an {@link op} comparison, or equality with a scalar. An object or array that
 * is not an operator (a request's JSON passed on as it is) is a `TypeError`, never a comparison.
 */
export function comparisonOf(condition: Condition): Comparison {
  if (condition !== null && typeof condition === "object" && !(condition instanceof Date)) {
    const made = (condition as Partial<Operator>)[conditionBrand]
    if (made) return made
    throw new TypeError("A condition is a value or an `op` comparison; an object or array is refused (a request's JSON is not a condition).")
  }
  return { op: "eq", value: scalar(condition, "A condition") }
}

/**
 * Checks a model declaration: names, types, keys, references and `expires`. Throws a `TypeError`
 * saying what is wrong; stores call it before they touch a model, `sesame migrate` before it
 * makes a table.
 */
export function checkModel(model: ModelDeclaration): ModelDeclaration {
  const where = `Model "${model.name}"`
  if (!/^[a-z][A-Za-z0-9]*$/.test(model.name)) throw new TypeError(`${where}: the name must be camelCase letters and digits.`)
  if ((reservedModelNames.has(model.name) && !isUserModel(model)) || model.name in Object.prototype) {
    throw new TypeError(`${where}: the name is Sesame's own (the user, the spec's tables' roles) or an object's; choose another.`)
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(model.table)) throw new TypeError(`${where}: the table must be a plain SQL identifier of at most 48 characters.`)
  const columns = new Set<string>()
  for (const [name, field] of Object.entries(model.fields)) {
    if (name in Object.prototype) throw new TypeError(`${where}: field "${name}" is the name of an object's own property; choose another.`)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`${where}: field "${name}" must be a plain identifier.`)
    const column = field.column ?? name
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(column)) throw new TypeError(`${where}: the column of "${name}" must be a plain SQL identifier.`)
    if (columns.has(column.toLowerCase())) throw new TypeError(`${where}: two fields are stored in column "${column}".`)
    columns.add(column.toLowerCase())
    if ((field.unique || field.index) && (field.type === "text" || field.type === "json")) {
      throw new TypeError(`${where}: field "${name}" of type ${field.type} cannot be unique or indexed; use "string".`)
    }
    if (field.references?.onDelete === "set null" && !field.optional) throw new TypeError(`${where}: field "${name}" is cleared on delete, so it must be optional.`)
  }
  const key = primaryKeyOf(model)
  if (key.length === 0) throw new TypeError(`${where}: the primary key names no field.`)
  for (const name of key) {
    const field = model.fields[name]
    if (!field || field.optional || (field.type !== "string" && field.type !== "integer")) {
      throw new TypeError(`${where}: primary key field "${name}" must be a required string or integer field.`)
    }
  }
  for (const index of model.indexes ?? []) {
    for (const name of index.fields) {
      const field = model.fields[name]
      if (!field) throw new TypeError(`${where}: an index names the unknown field "${name}".`)
      if (field.type === "text" || field.type === "json") throw new TypeError(`${where}: field "${name}" of type ${field.type} cannot be indexed.`)
    }
  }
  if (model.expires !== undefined) {
    const field = model.fields[model.expires]
    if (!field || field.type !== "date" || field.optional) throw new TypeError(`${where}: expires must name a required date field.`)
  }
  return model
}
