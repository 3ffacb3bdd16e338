/**
 * Storing a row whatever was there (an upsert) on the generic store, which has none of its own:
 * an update of the row with this key, else a create; a create that loses a race with another
 * (`StoreConflict`) updates the row the other one made.
 *
 * @module
 */
import { primaryKeyOf, StoreConflict, type ModelDeclaration, type Store, type StoredRow, type Where } from "./model.js"

/** Stores `row` (every field, its primary key included) in place of any row with its key. */
export async function replaceRow(store: Store, model: ModelDeclaration, row: StoredRow): Promise<void> {
  const keyFields = primaryKeyOf(model)
  // A primary key's fields are strings or integers (`checkModel`): values a condition takes.
  const key = Object.fromEntries(keyFields.map((field) => [field, row[field]!])) as Where
  const values = Object.fromEntries(Object.entries(row).filter(([field]) => !keyFields.includes(field)))
  if ((await store.update(model, key, values)) > 0) return
  try {
    await store.create(model, row)
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error
    await store.update(model, key, values)
  }
}
