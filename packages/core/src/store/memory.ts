/**
 * The generic store in memory, for `MemoryAdapter`: every rule of `Store` (unique values, expiry,
 * references that cascade or clear, atomic increments, transactions that roll back), so that
 * tests and quick starts behave as a database would. Rows are copied in and out; a transaction
 * works on a copy of every table and puts it in place when `fn` resolves.
 *
 * @module
 */
import { conditionsOf, fieldOf, matches, ordered, sortRows } from "./evaluate.js"
import { checkModel, primaryKeyOf, StoreConflict, type FindManyQuery, type ModelDeclaration, type Store, type StoredRow, type StoredValue, type Where } from "./model.js"

type Table = Map<string, StoredRow>

interface State {
  tables: Map<string, Table>
  /** Every model used so far, by name: what a deletion cascades to. */
  models: Map<string, ModelDeclaration>
}

/** The memory store, and what `MemoryAdapter` calls when it deletes a user. */
export interface MemoryStore extends Store {
  /** Deletes or clears the rows that refer to the user. */
  userDeleted(userId: string): void
}

const keyOf = (model: ModelDeclaration, row: StoredRow) => JSON.stringify(primaryKeyOf(model).map((f) => row[f]))

function copy<T>(value: T): T {
  return structuredClone(value)
}

function expired(model: ModelDeclaration, row: StoredRow, now: number): boolean {
  return model.expires !== undefined && (row[model.expires] as Date).getTime() <= now
}

/** The row as the store keeps it: every declared field, defaults filled, dates and JSON copied. */
function complete(model: ModelDeclaration, data: StoredRow): StoredRow {
  for (const name of Object.keys(data)) fieldOf(model, name)
  const row: StoredRow = {}
  for (const [name, field] of Object.entries(model.fields)) {
    const value = data[name] === undefined ? (field.default ?? null) : data[name]
    if (value === null && !field.optional) throw new TypeError(`Model "${model.name}" needs a value for "${name}".`)
    row[name] = value instanceof Date ? new Date(value.getTime()) : copy(value)
  }
  return row
}

/** A fresh, empty memory store; `userExists` checks references to users. */
export function memoryStore(userExists: (id: string) => boolean): MemoryStore {
  let state: State = { tables: new Map(), models: new Map() }
  const checked = new WeakSet<ModelDeclaration>()

  function table(model: ModelDeclaration): Table {
    if (!checked.has(model)) {
      checkModel(model)
      checked.add(model)
    }
    state.models.set(model.name, model)
    let rows = state.tables.get(model.name)
    if (!rows) state.tables.set(model.name, (rows = new Map()))
    return rows
  }

  function live(model: ModelDeclaration, where: Where): [string, StoredRow][] {
    const conditions = conditionsOf(model, where)
    const now = Date.now()
    return [...table(model)].filter(([, row]) => !expired(model, row, now) && matches(row, conditions))
  }

  function assertUnique(model: ModelDeclaration, row: StoredRow, except?: string): void {
    const rows = table(model)
    const key = keyOf(model, row)
    if (except !== key && rows.has(key)) throw new StoreConflict(model.name)
    const sets = [
      ...Object.entries(model.fields).filter(([, f]) => f.unique).map(([name]) => [name]),
      ...(model.indexes ?? []).filter((i) => i.unique).map((i) => [...i.fields]),
    ]
    for (const fields of sets) {
      if (fields.some((f) => row[f] === null)) continue
      for (const [other, existing] of rows) {
        if (other !== except && fields.every((f) => ordered(existing[f] ?? null) === ordered(row[f] ?? null))) throw new StoreConflict(model.name)
      }
    }
  }

  function assertReferences(model: ModelDeclaration, row: StoredRow): void {
    for (const [name, field] of Object.entries(model.fields)) {
      const target = field.references?.model
      const value = row[name]
      if (!target || value === null || value === undefined) continue
      const found = target === "user" ? userExists(String(value)) : [...(state.tables.get(target)?.values() ?? [])].some((r) => r[primaryKeyOf(state.models.get(target)!)[0]!] === value)
      if (!found) throw new Error(`Model "${model.name}": "${name}" refers to a ${target} that does not exist.`)
    }
  }

  /** Deletes or clears the rows of every model that refer to `target`'s row `id`. */
  function cascade(target: string, id: StoredValue): void {
    for (const model of state.models.values()) {
      for (const [name, field] of Object.entries(model.fields)) {
        if (field.references?.model !== target) continue
        for (const [key, row] of table(model)) {
          if (row[name] !== id) continue
          if (field.references.onDelete === "set null") row[name] = null
          else removeRow(model, key, row)
        }
      }
    }
  }

  function removeRow(model: ModelDeclaration, key: string, row: StoredRow): void {
    table(model).delete(key)
    const [single] = primaryKeyOf(model)
    if (primaryKeyOf(model).length === 1) cascade(model.name, row[single!]!)
  }

  const store: MemoryStore = {
    async create(model, data) {
      const row = complete(model, data)
      assertUnique(model, row)
      assertReferences(model, row)
      table(model).set(keyOf(model, row), row)
      return copy(row)
    },
    async findOne(model, where) {
      const [found] = live(model, where)
      return found ? copy(found[1]) : null
    },
    async findMany(model, query: FindManyQuery = {}) {
      let rows = live(model, query.where ?? {}).map(([, row]) => row)
      sortRows(model, rows, query.orderBy ?? [])
      rows = rows.slice(query.offset ?? 0, query.limit === undefined ? undefined : (query.offset ?? 0) + query.limit)
      return rows.map(copy)
    },
    async update(model, where, values) {
      for (const name of Object.keys(values)) {
        fieldOf(model, name)
        if (primaryKeyOf(model).includes(name)) throw new TypeError(`The primary key of model "${model.name}" cannot be changed.`)
      }
      const found = live(model, where)
      const changed = found.map(([key, row]) => [key, complete(model, { ...row, ...values })] as const)
      for (const [key, row] of changed) {
        assertUnique(model, row, key)
        assertReferences(model, row)
      }
      for (const [key, row] of changed) table(model).set(key, row)
      return changed.length
    },
    async delete(model, where) {
      const conditions = conditionsOf(model, where)
      const found = [...table(model)].filter(([, row]) => matches(row, conditions))
      for (const [key, row] of found) removeRow(model, key, row)
      return found.length
    },
    async count(model, where = {}) {
      return live(model, where).length
    },
    async increment(model, key, field, { by = 1, create, set = {} }) {
      if (fieldOf(model, field).type !== "integer") throw new TypeError(`Field "${field}" of model "${model.name}" is not an integer.`)
      const rows = table(model)
      const id = keyOf(model, key)
      const existing = rows.get(id)
      if (existing && !expired(model, existing, Date.now())) {
        const row = complete(model, { ...existing, ...set, [field]: (existing[field] as number) + by })
        rows.set(id, row)
        return copy(row)
      }
      const row = complete(model, { ...create, ...set, ...key, [field]: by })
      if (existing) rows.delete(id)
      assertUnique(model, row)
      rows.set(id, row)
      return copy(row)
    },
    async transaction(fn) {
      const before = state
      state = { tables: new Map([...before.tables].map(([name, rows]) => [name, new Map([...rows].map(([k, r]) => [k, copy(r)]))])), models: new Map(before.models) }
      try {
        return await fn(store)
      } catch (error) {
        state = before
        throw error
      }
    },
    userDeleted(userId) {
      cascade("user", userId)
    },
  }
  return store
}
