/**
 * Hashes imported from another system (bcrypt, scrypt, PBKDF2…), upgraded on their owner's next
 * sign-in.
 *
 * An app moving its users to Sesame brings their password hashes along. {@link withLegacyHashes}
 * wraps the current hasher: a stored hash in one of the legacy formats is checked by that format's
 * verifier, every new hash is made by the current hasher, and `needsRehash` is true for every
 * legacy hash, so the password flow replaces it with a current one as soon as its owner signs in
 * with the right password. Sesame ships no legacy verifier (it would tie the core to bcrypt or
 * scrypt packages that most apps never need); an app passes the few lines for its format, such as
 *
 * ```ts
 * import bcrypt from "bcryptjs"
 * const bcryptHashes = { matches: (hash) => /^\$2[aby]\$/.test(hash), verify: (hash, password) => bcrypt.compare(password, hash) }
 * Password({ hasher: withLegacyHashes(argon2id(), [bcryptHashes]) })
 * ```
 *
 * @module
 */
import type { PasswordHasher } from "./hash.js"

/** A format of hashes that can be verified but are no longer made. */
export interface LegacyHashFormat {
  /** Whether `hash` is in this format (`$2b$…` for bcrypt, say). Must not throw. */
  matches(hash: string): boolean
  /**
   * Whether `password` matches `hash`. Must compare in constant time (the password-hashing
   * libraries do) and return false rather than throw for a malformed hash.
   */
  verify(hash: string, password: string): Promise<boolean>
}

/**
 * A hasher that makes and checks `current` hashes, also checks hashes in the `legacy` formats
 * (the first format whose `matches` accepts a hash verifies it), and asks for every legacy hash
 * to be rehashed.
 *
 * @param current The hasher for new hashes, usually `argon2id()`.
 * @param legacy The formats of imported hashes, tried in order.
 */
export function withLegacyHashes(current: PasswordHasher, legacy: readonly LegacyHashFormat[]): PasswordHasher {
  const formatOf = (hash: string) => legacy.find((format) => format.matches(hash))
  const hasher: PasswordHasher = {
    hash: (password) => current.hash(password),
    verify(hash, password) {
      const format = formatOf(hash)
      return format ? format.verify(hash, password) : current.verify(hash, password)
    },
    needsRehash: (hash) => formatOf(hash) !== undefined || (current.needsRehash?.(hash) ?? false),
  }
  // An unknown account costs what a current hash costs: legacy hashes only shrink in number.
  if (current.dummyHash) hasher.dummyHash = current.dummyHash.bind(current)
  return hasher
}
