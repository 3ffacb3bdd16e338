/**
 * Where second factors and recovery codes are kept: the models `twoFactors` (one row a user) and
 * `recoveryCodes` (one row a code's hash) of the adapter's generic store, on the tables
 * (`sesame_two_factors`, `sesame_recovery_codes`) every release has made, so a database made
 * before the store keeps working. A user's rows go with the user.
 *
 * @module
 */
import { storeOf } from "../store/checked.js"
import type { ModelDeclaration, Store, StoredRow } from "../store/model.js"
import { replaceRow } from "../store/replace.js"

/**
 * A user's second factor as stored. A user has at most one: codes from an authenticator app
 * (`totp`), or codes sent to their email address (`email`).
 */
export interface AdapterTwoFactor {
  userId: string
  method: "totp" | "email"
  /** The TOTP secret, encrypted under the app's secret (a compact JWE); null for `email`. */
  secret: string | null
  /** When the user turned it on (after a first code confirmed it). */
  enabledAt: Date
  /**
   * "Remember this device" cookies issued before this instant no longer skip the second factor:
   * set when the user's sessions are ended everywhere. Null when never.
   */
  devicesRevokedAt: Date | null
}

export const twoFactorModel = {
  name: "twoFactors",
  table: "sesame_two_factors",
  primaryKey: "userId",
  fields: {
    userId: { type: "string", references: { model: "user" } },
    method: { type: "string" },
    secret: { type: "text", optional: true },
    enabledAt: { type: "date" },
    devicesRevokedAt: { type: "date", optional: true },
  },
} as const satisfies ModelDeclaration

/** The hashes of a user's unused recovery codes (HMAC-SHA-256 under the app's secret, hex). */
export const recoveryCodeModel = {
  name: "recoveryCodes",
  table: "sesame_recovery_codes",
  primaryKey: ["userId", "hash"],
  fields: {
    userId: { type: "string", references: { model: "user" } },
    hash: { type: "string" },
  },
} as const satisfies ModelDeclaration

type Holder = { readonly store: Store | undefined }
const feature = "two-factor sign-in"

function twoFactorOf(row: StoredRow): AdapterTwoFactor {
  return {
    userId: row.userId as string,
    method: row.method as AdapterTwoFactor["method"],
    secret: row.secret as string | null,
    enabledAt: row.enabledAt as Date,
    devicesRevokedAt: row.devicesRevokedAt as Date | null,
  }
}

/** The user's second factor, or null when they have none. */
export async function storedTwoFactor(adapter: Holder, userId: string): Promise<AdapterTwoFactor | null> {
  const row = await storeOf(adapter, feature).findOne(twoFactorModel, { userId })
  return row && twoFactorOf(row)
}

/** Stores the user's second factor in place of any earlier one. */
export async function storeTwoFactor(adapter: Holder, twoFactor: AdapterTwoFactor): Promise<void> {
  await replaceRow(storeOf(adapter, feature), twoFactorModel, { ...twoFactor })
}

/** Removes the user's second factor and their recovery codes, in one transaction. */
export async function removeTwoFactor(adapter: Holder, userId: string): Promise<void> {
  await storeOf(adapter, feature).transaction(async (tx) => {
    await tx.delete(recoveryCodeModel, { userId })
    await tx.delete(twoFactorModel, { userId })
  })
}

/** Replaces all of the user's recovery codes with these hashes, in one transaction. */
export async function replaceRecoveryCodes(adapter: Holder, userId: string, hashes: readonly string[]): Promise<void> {
  await storeOf(adapter, feature).transaction(async (tx) => {
    await tx.delete(recoveryCodeModel, { userId })
    for (const hash of new Set(hashes)) await tx.create(recoveryCodeModel, { userId, hash })
  })
}

/** Removes the user's recovery code with this hash and says whether it was there: of two concurrent uses, one gets true. */
export async function takeRecoveryCode(adapter: Holder, userId: string, hash: string): Promise<boolean> {
  return (await storeOf(adapter, feature).delete(recoveryCodeModel, { userId, hash })) === 1
}

/** How many unused recovery codes the user has. */
export async function countRecoveryCodes(adapter: Holder, userId: string): Promise<number> {
  return storeOf(adapter, feature).count(recoveryCodeModel, { userId })
}
