/**
 * Drizzle reports a failed statement as a `DrizzleQueryError` whose message lists the statement's
 * parameters: OAuth access and refresh tokens, emails, token hashes. Sesame logs an adapter's
 * errors with their cause, so the store passes on the driver's own error (its `cause`) instead,
 * which says what failed without the values. mysql2's error has the statement with the values
 * filled in as `sql`; that becomes the statement with placeholders.
 *
 * @module
 */
import { DrizzleQueryError } from "drizzle-orm"
import type { Store } from "./types.js"

/** `error`, or the driver's error a `DrizzleQueryError` wraps, without the statement's values. */
export function withoutParameters(error: unknown): unknown {
  if (!(error instanceof DrizzleQueryError)) return error
  const cause = error.cause
  if (!cause) return new Error(`A database statement failed: ${error.query}`)
  if ("sql" in cause) Object.assign(cause, { sql: error.query })
  return cause
}

/** `store`, with every failure passed through `withoutParameters`. */
export function guarded(store: Store): Store {
  const guard =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method(...args)
      } catch (error) {
        throw withoutParameters(error)
      }
    }
  return {
    insert: guard(store.insert),
    find: guard(store.find),
    findAll: guard(store.findAll),
    page: guard(store.page),
    updateOne: guard(store.updateOne),
    removeOne: guard(store.removeOne),
    remove: guard(store.remove),
  }
}
