/**
 * Rows to models. Drizzle has already turned column values into `Date`s, booleans and numbers;
 * what is left is the contract's shape, the same as `@sesame/adapter-sqlite` gives: an account's
 * internal id is dropped, and an account's or session's null fields are left out rather than set
 * to null. Columns an app added to a table come along as they are.
 *
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@sesame/core/adapters"
import { readFactors } from "@sesame/sql-common"
import { getTableColumns, type Table } from "drizzle-orm"
import type { Row } from "./store/types.js"

function withoutNulls(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined))
}

/** The defined values of `values` whose keys are columns of `table` (and not in `except`). */
export function columnValues(table: Table, values: object, except: readonly string[] = []): Row {
  const columns = getTableColumns(table)
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => key in columns && value !== undefined && !except.includes(key)))
}

export const toUser = (row: Row) => row as unknown as AdapterUser

export function toAccount(row: Row): AdapterAccount {
  const { id: _id, ...rest } = row
  return withoutNulls(rest) as unknown as AdapterAccount
}

/** A session, its stored factors (comma-separated text, see `writeFactors`) as a list. */
export const toSession = (row: Row) => withoutNulls({ ...row, factors: readFactors(row.factors) }) as unknown as AdapterSession

export const toVerificationToken = (row: Row) => row as unknown as VerificationToken

export function toAuthenticator(row: Row): AdapterAuthenticator {
  const { name, createdAt, transports, ...rest } = row
  return {
    ...(rest as unknown as AdapterAuthenticator),
    transports: (transports as string | null) ?? null,
    ...(name !== null && name !== undefined ? { name: name as string } : {}),
    ...(createdAt !== null && createdAt !== undefined ? { createdAt: createdAt as Date } : {}),
  }
}
