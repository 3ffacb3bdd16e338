/**
 * The adapter as the rest of Sesame calls it: every method present (a missing one fails with
 * `MissingAdapterMethods` naming it), every failure an `AdapterError` carrying the driver's error
 * (but a caller's mistake, a `TypeError` of `listUsers`, which is checked before the call too),
 * debug logs that name the method but never its arguments (they carry tokens), and user ids always
 * strings: Auth.js's adapters on serial columns (`@auth/pg-adapter`) return numbers, which would
 * make `5 !== "5"` where Sesame compares a stored id with one from a cookie or a token.
 *
 * @module
 */
import { AdapterError, AuthError, MissingAdapterMethods } from "../errors.js"
import type { LoggerInstance } from "../logger.js"
import { checkStore } from "../store/checked.js"
import { availabilityOf, type Availability } from "./availability.js"
import { checkUserListLimits } from "./list-users.js"
import type { Store } from "../store/model.js"
import type { Adapter } from "./types.js"

export type AdapterMethod = Exclude<keyof Adapter, "transaction" | "store" | "withUserFields">

type Method<K extends AdapterMethod> = NonNullable<Adapter[K]> extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never

/** The adapter with every method (each returning a promise), plus `has`, `transaction` and its checked `store`. */
export type CheckedAdapter = { [K in AdapterMethod]-?: Method<K> } & {
  /** The generic store of declared models (`store/checked.ts`), when the adapter has one. */
  readonly store: Store | undefined
  /** Whether the underlying adapter implements `method`. */
  has(method: AdapterMethod): boolean
  /** Runs `fn` in a transaction when the adapter supports them, else directly. */
  transaction<T>(fn: (adapter: CheckedAdapter) => Promise<T>): Promise<T>
  /** Whether this is the adapter of a transaction: what it writes is rolled back if `fn` fails. */
  readonly inTransaction: boolean
  /** Whether the storage is in an outage already logged (`availability.ts`). */
  readonly down: boolean
  /** An outage of storage reached without this adapter was just logged (`Availability.loggedElsewhere`). */
  loggedElsewhere(): void
}

const methods: AdapterMethod[] = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "updateAccount",
  "listAccountsByUserId",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "listSessionsByUserId",
  "deleteSessionsByUserId",
  "listUsers",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "updateAuthenticator",
  "deleteAuthenticator",
]

/** The methods that only read: tried again when the storage could not be reached (`availability.ts`). */
const reads: ReadonlySet<AdapterMethod> = new Set<AdapterMethod>([
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "getAccount",
  "listAccountsByUserId",
  "getSessionAndUser",
  "listSessionsByUserId",
  "listUsers",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
])

/**
 * Checks of a method's arguments before the adapter is called: a caller's mistake (a `limit` out of
 * range) is a `TypeError`, refused alike whatever the adapter.
 */
const argumentChecks: Partial<Record<AdapterMethod, (...args: unknown[]) => void>> = {
  listUsers: (query) => void checkUserListLimits(query),
}

/**
 * The methods whose `TypeError` is the caller's mistake (a cursor the adapter did not give), passed
 * on as it is, as the checked store passes on its own (`store/checked.ts`), rather than made an
 * `AdapterError`.
 */
const callerErrors: ReadonlySet<AdapterMethod> = new Set<AdapterMethod>(["listUsers"])

/**
 * Wraps `adapter` for internal use. `transaction` is the availability of the adapter whose
 * transaction `adapter` is: its operations are never tried again (the transaction's connection is
 * the one that failed), and an outage is the adapter's one outage.
 */
export function checkAdapter(adapter: Adapter, logger: LoggerInstance, transaction?: Availability): CheckedAdapter {
  const availability = transaction ?? availabilityOf(adapter, logger)
  const inTransaction = transaction !== undefined
  const checked = {
    store: adapter.store ? checkStore(adapter.store, logger, availability, inTransaction) : undefined,
    has: (method: AdapterMethod) => typeof adapter[method] === "function",
    inTransaction,
    get down() {
      return availability.down
    },
    loggedElsewhere: () => availability.loggedElsewhere(),
    transaction<T>(fn: (a: CheckedAdapter) => Promise<T>): Promise<T> {
      if (typeof adapter.transaction !== "function") return fn(checked)
      const run = () => adapter.transaction!((tx) => fn(checkAdapter(tx, logger, availability)))
      // Never tried again: `fn` may have done what cannot be undone (sent a mail, written to a store
      // that does not roll back) before the storage went away.
      return availability.run(run, "never").catch((error: unknown) => {
        throw error instanceof AuthError ? error : new AdapterError("Adapter transaction failed.", { cause: error })
      })
    },
  } as CheckedAdapter
  for (const method of methods) {
    ;(checked as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] = async (...args: unknown[]) => {
      const fn = adapter[method] as ((...a: unknown[]) => unknown) | undefined
      if (typeof fn !== "function") {
        throw new MissingAdapterMethods(`The adapter has no "${method}" method, which this operation needs.`)
      }
      argumentChecks[method]?.(...args)
      logger.debug(`adapter ${method}`)
      const retry = inTransaction ? "never" : reads.has(method) ? "read" : "write"
      try {
        return withStringIds(await availability.run(async () => fn.apply(adapter, args), retry))
      } catch (error) {
        if (error instanceof AuthError || (error instanceof TypeError && callerErrors.has(method))) throw error
        throw new AdapterError(`Adapter method "${method}" failed.`, { cause: error })
      }
    }
  }
  return checked
}

/** The fields of adapter records that hold a user's id. */
const idFields = ["id", "userId"] as const

/**
 * A record (or the records of a list, of `getSessionAndUser`'s pair or of `listUsers`' page) with its user ids as
 * strings. Only numbers are converted; anything else is left as the adapter returned it.
 */
function withStringIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withStringIds)
  if (!value || typeof value !== "object" || value instanceof Date) return value
  const record = value as Record<string, unknown>
  if ("session" in record && "user" in record) return { ...record, session: withStringIds(record.session), user: withStringIds(record.user) }
  if (Array.isArray(record.users)) return { ...record, users: record.users.map(withStringIds) }
  if (!idFields.some((field) => typeof record[field] === "number" || typeof record[field] === "bigint")) return value
  const copy = { ...record }
  for (const field of idFields) if (typeof copy[field] === "number" || typeof copy[field] === "bigint") copy[field] = String(copy[field])
  return copy
}

/** What a feature may need of an adapter: methods, and the generic store of declared models. */
export type AdapterRequirement = AdapterMethod | "store"

/** What the adapter lacks among `needed`. */
export function missingMethods(adapter: Adapter, needed: Iterable<AdapterRequirement>): AdapterRequirement[] {
  return [...new Set(needed)].filter((m) => (m === "store" ? !adapter.store : typeof adapter[m] !== "function"))
}
