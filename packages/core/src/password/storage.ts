/**
 * Where password hashes are kept: the model `passwords` of the adapter's generic store, one row a
 * user, on the table (`sesame_passwords`) that every release has made, so a database made before
 * the store keeps working.
 *
 * @module
 */
import { storeOf } from "../store/checked.js"
import type { ModelDeclaration, Store } from "../store/model.js"
import { replaceRow } from "../store/replace.js"

/** A user's password as stored: only its hash, never the password. */
export interface AdapterPassword {
  userId: string
  /** The hash, as its hasher writes it: a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) or an imported format (`$2b$…`). */
  hash: string
  /** When the password was last set. */
  updatedAt: Date
}

export const passwordModel = {
  name: "passwords",
  table: "sesame_passwords",
  primaryKey: "userId",
  fields: {
    userId: { type: "string", references: { model: "user" } },
    hash: { type: "text" },
    updatedAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

const feature = "password sign-in"

/** The user's password, or null when they have none. */
export async function storedPassword(adapter: { readonly store: Store | undefined }, userId: string): Promise<AdapterPassword | null> {
  const row = await storeOf(adapter, feature).findOne(passwordModel, { userId })
  return row && { userId: row.userId as string, hash: row.hash as string, updatedAt: row.updatedAt as Date }
}

/** Stores the user's password hash in place of any earlier one. */
export async function storePassword(adapter: { readonly store: Store | undefined }, password: AdapterPassword): Promise<void> {
  await replaceRow(storeOf(adapter, feature), passwordModel, { userId: password.userId, hash: password.hash, updatedAt: password.updatedAt })
}

/**
 * Replaces the user's hash `expected` with `hash`, in one conditional update: false, and nothing
 * changed, when the stored hash is no longer `expected` (the password changed meanwhile).
 */
export async function replacePasswordHash(adapter: { readonly store: Store | undefined }, userId: string, expected: string, hash: string): Promise<boolean> {
  return (await storeOf(adapter, feature).update(passwordModel, { userId, hash: expected }, { hash, updatedAt: new Date() })) === 1
}

/**
 * Stores `hash` as the password hash of the user `userId`, in place of any earlier one: for
 * importing users from another system (a bcrypt hash, say, with `withLegacyHashes` on the
 * `Password()` hasher, which replaces it with Argon2id at the user's next sign-in). Needs an
 * adapter with a generic store (every Sesame adapter). Sessions are left alone.
 *
 * @example
 * ```ts
 * import { importPasswordHash } from "@sesame/core/password"
 * const user = await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: new Date() })
 * await importPasswordHash(adapter, user.id, row.bcrypt_hash)
 * ```
 */
export async function importPasswordHash(adapter: { readonly store?: Store | undefined }, userId: string, hash: string): Promise<void> {
  if (typeof hash !== "string" || hash.length === 0) throw new TypeError("importPasswordHash: `hash` must be a non-empty string.")
  await storePassword({ store: adapter.store }, { userId, hash, updatedAt: new Date() })
}
