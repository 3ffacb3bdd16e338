/**
 * Rows to models. Dates are stored as milliseconds since the epoch, booleans as 0/1; an account's
 * or session's absent optional fields are left out of the model rather than set to null.
 *
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@sesame/core/adapters"

export type Row = Record<string, unknown>

export const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(Number(value)))
export const fromDate = (value: Date | null | undefined): number | null => (value ? value.getTime() : null)

function withoutNulls<T extends Row>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)) as T
}

export function toUser(row: Row): AdapterUser {
  return {
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    email: row.email as string,
    emailVerified: toDate(row.emailVerified),
    image: (row.image as string | null) ?? null,
  }
}

/** Account columns other than the keys. */
export const accountTokenColumns = ["refresh_token", "access_token", "expires_at", "token_type", "scope", "id_token", "session_state"] as const

export function toAccount(row: Row): AdapterAccount {
  const { id: _id, expires_at, ...rest } = row
  return withoutNulls({ ...rest, expires_at: expires_at === null ? null : Number(expires_at) }) as unknown as AdapterAccount
}

export function toSession(row: Row): AdapterSession {
  return withoutNulls({
    sessionToken: row.sessionToken,
    userId: row.userId,
    expires: toDate(row.expires),
    createdAt: toDate(row.createdAt),
    lastUsedAt: toDate(row.lastUsedAt),
    userAgent: row.userAgent,
  }) as unknown as AdapterSession
}

export function toVerificationToken(row: Row): VerificationToken {
  return { identifier: row.identifier as string, token: row.token as string, expires: toDate(row.expires)! }
}

export function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: row.credentialID as string,
    userId: row.userId as string,
    providerAccountId: row.providerAccountId as string,
    credentialPublicKey: row.credentialPublicKey as string,
    counter: Number(row.counter),
    credentialDeviceType: row.credentialDeviceType as string,
    credentialBackedUp: Boolean(row.credentialBackedUp),
    transports: (row.transports as string | null) ?? null,
    ...(row.name !== null && row.name !== undefined ? { name: row.name as string } : {}),
    ...(row.createdAt !== null && row.createdAt !== undefined ? { createdAt: toDate(row.createdAt)! } : {}),
  }
}
