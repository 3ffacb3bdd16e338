/**
 * For the SQL adapters' raw readers: rows of the tables that hold Sesame's built-in models
 * (passwords, counters, second factors, signing keys), read straight from the database, in the
 * shape the conformance suite compares with what the store wrote. Dates go through `readDate`, as
 * each driver hands them back differently; so does the counter's 64-bit `count`.
 */
import type { AdapterPassword, AdapterSigningKey, AdapterTwoFactor } from "@sesame/core/adapters"
import { readDate, type Row } from "@sesame/sql-common"

export function toPassword(row: Row): AdapterPassword {
  return { userId: row.userId as string, hash: row.hash as string, updatedAt: readDate(row.updatedAt)! }
}

export function toCounter(row: Row): { key: string; count: number; expires: Date } {
  return { key: row.key as string, count: Number(row.count), expires: readDate(row.expires)! }
}

export function toTwoFactor(row: Row): AdapterTwoFactor {
  return {
    userId: row.userId as string,
    method: row.method as AdapterTwoFactor["method"],
    secret: (row.secret as string | null | undefined) ?? null,
    enabledAt: readDate(row.enabledAt)!,
    devicesRevokedAt: readDate(row.devicesRevokedAt),
  }
}

export function toSigningKey(row: Row): AdapterSigningKey {
  return {
    id: row.id as string,
    algorithm: row.algorithm as string,
    publicKey: row.publicKey as string,
    privateKey: row.privateKey as string,
    createdAt: readDate(row.createdAt)!,
  }
}
