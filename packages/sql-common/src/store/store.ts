/**
 * The generic store on SQL, for every dialect and driver: an adapter gives it a {@link SqlRunner}
 * (its pool and transactions) and the names of its tables, and `store` keeps every rule of
 * `Store` (`@sesame/core/adapters`) in SQL:
 *
 * - `create` is one `INSERT`, returning its row (`RETURNING`; MySQL has none, and the row is the
 *   values as the store reads them back). Reads name the model's columns (a table may have others). A duplicate primary key or unique value, in a create,
 *   an update or an increment, is `StoreConflict`, with the driver's error as its `cause`.
 * - Rows whose `expires` is past are left out of `findOne`, `findMany`, `count` and `update` by
 *   a condition; `delete` removes them with the others. Nothing purges them otherwise.
 * - `findMany` orders nulls first, ascending (last, descending) on every dialect, as MySQL and
 *   SQLite do and as the memory store does; PostgreSQL is told to.
 * - `update` returns the rows that matched, changed or not. MySQL reports the rows it changed
 *   unless the connection has the `FOUND_ROWS` flag, which the app's pool may not, so on MySQL the
 *   store counts the matching rows (`FOR UPDATE`) and updates them in one transaction.
 * - `increment` is one upsert (`./increment.ts`); MySQL then reads the row in the same
 *   transaction, where the upsert's row lock keeps other increments out until it commits, so each
 *   increment returns its own count.
 * - `transaction` runs `fn` with a store on the runner's transaction.
 *
 * @module
 */
import { columnOf, primaryKeyOf, StoreConflict, type ModelDeclaration, type Store, type StoredRow, type Where } from "@sesame/core/adapters"
import { isUniqueViolation } from "./conflict.js"
import { incrementSql } from "./increment.js"
import { checkedModel, quote, tableOf } from "./names.js"
import type { SqlStoreOptions } from "./types.js"
import { readRow } from "./values.js"
import { Params, whereSql } from "./where.js"

/** Throws a `TypeError` unless `value` is a count of rows (`limit`, `offset`). */
function rowCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number of rows, 0 or more; got ${value}.`)
  return value
}

/** The generic store on `options.runner`'s database, for `options.dialect`. */
export function sqlStore(options: SqlStoreOptions): Store {
  const { dialect, runner } = options
  const q = (name: string) => quote(dialect, name)
  const table = (model: ModelDeclaration) => q(tableOf(checkedModel(model), options.tables))
  /** Runs `write`, turning a duplicate key into `StoreConflict`. */
  const conflicting = async <T>(model: ModelDeclaration, write: () => Promise<T>): Promise<T> => {
    try {
      return await write()
    } catch (error) {
      throw isUniqueViolation(error) ? new StoreConflict(model.name, { cause: error }) : error
    }
  }

  /** Every field of a new row: `data`, then defaults; a required field left empty is a `TypeError`. */
  const complete = (model: ModelDeclaration, data: StoredRow): StoredRow => {
    for (const name of Object.keys(data)) columnOf(model, name)
    const row: StoredRow = {}
    for (const [name, field] of Object.entries(model.fields)) {
      const value = data[name] === undefined ? (field.default ?? null) : data[name]
      if (value === null && !field.optional) throw new TypeError(`Model "${model.name}" needs a value for "${name}".`)
      row[name] = value
    }
    return row
  }

  /**
   * The model's columns as the store reads them. MySQL's dates come as their text (UTC, as the
   * store wrote them), whatever the driver would make of a `DATETIME` (mysql2 reads one in the
   * pool's time zone unless told `dateStrings`, and a query builder may not tell it).
   */
  const columns = (model: ModelDeclaration) =>
    Object.entries(model.fields)
      .map(([name, field]) => {
        const column = q(columnOf(model, name))
        return dialect === "mysql" && field.type === "date" ? `CAST(${column} AS CHAR) AS ${column}` : column
      })
      .join(", ")

  /** `SELECT … WHERE` the live rows that match. */
  const select = (model: ModelDeclaration, where: Where, params: Params, now = new Date()) =>
    `SELECT ${columns(model)} FROM ${table(model)}${whereSql(dialect, model, where, params, now)}`

  const store: Store = {
    async create(model, data) {
      const row = complete(checkedModel(model), data)
      const names = Object.keys(model.fields)
      const params = new Params(dialect)
      const values = names.map((name) => params.field(model, name, row[name]))
      const sql = `INSERT INTO ${table(model)} (${names.map((n) => q(columnOf(model, n))).join(", ")}) VALUES (${values.join(", ")})`
      if (dialect === "mysql") {
        await conflicting(model, () => runner.run(sql, params.values))
        // The row as the store would read it back: the encoded values, keyed by column.
        return readRow(model, Object.fromEntries(names.map((name, i) => [columnOf(model, name), params.values[i]])))
      }
      const { rows } = await conflicting(model, () => runner.run(`${sql} RETURNING ${columns(model)}`, params.values))
      return readRow(model, rows[0]!)
    },

    async findOne(model, where) {
      const params = new Params(dialect)
      const { rows } = await runner.run(`${select(model, where, params)} LIMIT 1`, params.values)
      return rows[0] ? readRow(model, rows[0]) : null
    },

    async findMany(model, query = {}) {
      const params = new Params(dialect)
      let sql = select(model, query.where ?? {}, params)
      if (query.orderBy?.length) {
        const keys = query.orderBy.map(({ field, direction }) => {
          const desc = direction === "desc"
          return `${q(columnOf(model, field))} ${desc ? "DESC" : "ASC"}${dialect === "pg" ? (desc ? " NULLS LAST" : " NULLS FIRST") : ""}`
        })
        sql += ` ORDER BY ${keys.join(", ")}`
      }
      const offset = query.offset === undefined ? 0 : rowCount("offset", query.offset)
      if (query.limit !== undefined) sql += ` LIMIT ${rowCount("limit", query.limit)}`
      // MySQL and SQLite take no OFFSET without a LIMIT: theirs for "no limit".
      else if (offset > 0 && dialect !== "pg") sql += dialect === "mysql" ? " LIMIT 18446744073709551615" : " LIMIT -1"
      if (offset > 0) sql += ` OFFSET ${offset}`
      return (await runner.run(sql, params.values)).rows.map((row) => readRow(model, row))
    },

    async update(model, where, values) {
      const key = primaryKeyOf(checkedModel(model))
      const set = Object.entries(values).filter(([, value]) => value !== undefined)
      for (const [name, value] of set) {
        columnOf(model, name)
        if (key.includes(name)) throw new TypeError(`The primary key of model "${model.name}" cannot be changed (field "${name}").`)
        if (value === null && !model.fields[name]!.optional) throw new TypeError(`Model "${model.name}" needs a value for "${name}".`)
      }
      if (set.length === 0) return store.count(model, where)
      const now = new Date()
      const params = new Params(dialect)
      const assignments = set.map(([name, value]) => `${q(columnOf(model, name))} = ${params.field(model, name, value)}`).join(", ")
      const sql = `UPDATE ${table(model)} SET ${assignments}${whereSql(dialect, model, where, params, now)}`
      if (dialect !== "mysql") return (await conflicting(model, () => runner.run(sql, params.values))).affected
      return runner.atomically(async (tx) => {
        const counted = new Params(dialect)
        const { rows } = await tx.run(`SELECT COUNT(*) AS ${q("n")} FROM ${table(model)}${whereSql(dialect, model, where, counted, now)} FOR UPDATE`, counted.values)
        await conflicting(model, () => tx.run(sql, params.values))
        return Number(rows[0]?.n ?? 0)
      })
    },

    async delete(model, where) {
      const params = new Params(dialect)
      const sql = `DELETE FROM ${table(model)}${whereSql(dialect, model, where, params)}`
      return (await runner.run(sql, params.values)).affected
    },

    async count(model, where = {}) {
      const params = new Params(dialect)
      const sql = `SELECT COUNT(*) AS ${q("n")} FROM ${table(model)}${whereSql(dialect, model, where, params, new Date())}`
      const { rows } = await runner.run(sql, params.values)
      return Number(rows[0]?.n ?? 0)
    },

    async increment(model, key, field, { by = 1, create, set = {} }) {
      const fields = primaryKeyOf(checkedModel(model))
      if (model.fields[field]?.type !== "integer" || fields.includes(field)) {
        throw new TypeError(`Model "${model.name}": "${field}" is not an integer field outside the primary key, which increment needs.`)
      }
      for (const name of Object.keys(key)) {
        if (!fields.includes(name)) throw new TypeError(`Model "${model.name}": the key of increment names "${name}", which is not in the primary key.`)
      }
      const written = Object.keys(set).filter((name) => set[name] !== undefined)
      for (const name of written) {
        columnOf(model, name)
        if (fields.includes(name) || name === field) throw new TypeError(`Model "${model.name}": increment cannot \`set\` "${name}", a key field or the one it counts.`)
      }
      const row = complete(model, { ...create, ...set, ...key, [field]: by })
      const upsert = incrementSql(dialect, model, tableOf(model, options.tables), row, field, { by, set: written, now: new Date() })
      if (dialect !== "mysql") {
        const { rows } = await conflicting(model, () => runner.run(upsert.sql, upsert.params))
        return readRow(model, rows[0]!)
      }
      return runner.atomically(async (tx) => {
        await conflicting(model, () => tx.run(upsert.sql, upsert.params))
        const params = new Params(dialect)
        const byKey = fields.map((name) => `${q(columnOf(model, name))} = ${params.field(model, name, row[name])}`).join(" AND ")
        const { rows } = await tx.run(`SELECT ${columns(model)} FROM ${table(model)} WHERE ${byKey}`, params.values)
        return readRow(model, rows[0]!)
      })
    },

    transaction: (fn) => runner.atomically((tx) => fn(sqlStore({ ...options, runner: tx }))),
  }
  return store
}
