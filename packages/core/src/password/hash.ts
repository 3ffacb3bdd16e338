/**
 * Password hashing: Argon2id by default, any other scheme through {@link PasswordHasher}.
 *
 * Policy:
 * - New hashes are Argon2id PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<tag>`) with the
 *   parameters of `config/defaults.ts` unless the app gives its own. A PHC string carries its own
 *   parameters and salt, so hashes made with older parameters keep verifying.
 * - After a successful sign-in the flow asks {@link PasswordHasher.needsRehash}: a hash whose
 *   algorithm or parameters differ from the current ones is replaced by a fresh hash of the
 *   password just verified, so raising the parameters upgrades every active account.
 * - The comparison of the computed and stored tags is constant-time; the library does it.
 * - A sign-in for an unknown account runs {@link dummyVerify}, the same work as a real
 *   verification, so its answer takes about as long as a wrong password's and does not reveal
 *   which addresses have accounts.
 *
 * @module
 */
import type { Algorithm, Version } from "@node-rs/argon2"
import { defaultArgon2Parameters } from "../config/defaults.js"
import { randomToken } from "../crypto/encoding.js"
import { argon2Library } from "./argon2-library.js"

/**
 * Makes and checks password hashes. Pass one to the password provider to use another scheme than
 * Argon2id, or wrap one with `withLegacyHashes` (`password/legacy.ts`) to accept hashes imported
 * from another system.
 */
export interface PasswordHasher {
  /** A new hash of `password`, with a new salt, in a self-describing format (such as PHC). */
  hash(password: string): Promise<string>
  /**
   * Whether `password` matches `hash`. False, not an error, for a hash this hasher cannot read.
   * The comparison must take a time that does not depend on how much of the hash matches.
   */
  verify(hash: string, password: string): Promise<boolean>
  /**
   * Whether `hash`, which has just verified, should be replaced by `hash(password)`: it was made
   * with another algorithm or other parameters. Without it, hashes are never replaced.
   */
  needsRehash?(hash: string): boolean
  /**
   * A hash that matches no password and costs {@link verify} as much as a real one, for
   * {@link dummyVerify}. Without it, `dummyVerify` hashes a random password once per hasher.
   */
  dummyHash?(): string
}

/** Argon2id's cost parameters: memory in KiB, passes, lanes, and the tag length in bytes. */
export interface Argon2Parameters {
  memoryCost: number
  timeCost: number
  parallelism: number
  outputLen: number
}

/** The parts of an Argon2 PHC string that say how it was made. */
interface Argon2Phc {
  algorithm: string
  version: number
  memoryCost: number
  timeCost: number
  parallelism: number
  outputLen: number
}

// `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<tag>`: salt and tag in unpadded standard base64. Older
// libraries omit `v=` (version 16) or add parameters such as `keyid`; those parse as "not current".
const phc = /^\$(argon2(?:id|i|d))\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

function parseArgon2(hash: string): Argon2Phc | null {
  const match = phc.exec(hash)
  if (!match) return null
  const [, algorithm, version, m, t, p, , tag] = match as unknown as [string, string, string, string, string, string, string, string]
  return {
    algorithm,
    version: Number(version),
    memoryCost: Number(m),
    timeCost: Number(t),
    parallelism: Number(p),
    outputLen: Math.floor((tag.length * 3) / 4),
  }
}

/** Argon2 version 0x13, written `v=19`: the current one, and the one `@node-rs/argon2` makes. */
const currentVersion = 19

function assertParameters(parameters: Argon2Parameters): void {
  for (const [name, value] of Object.entries(parameters)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`argon2id: "${name}" must be a positive integer, got ${String(value)}`)
  }
  if (parameters.memoryCost < 8 * parameters.parallelism) throw new TypeError('argon2id: "memoryCost" must be at least 8 KiB per lane ("parallelism")')
  if (parameters.outputLen < 16) throw new TypeError('argon2id: "outputLen" must be at least 16 bytes')
}

/** Unpadded standard base64 (the PHC alphabet) of `bytes` random bytes. */
function randomPhcBase64(bytes: number): string {
  return randomToken(bytes).replace(/-/g, "+").replace(/_/g, "/")
}

/**
 * The default hasher: Argon2id through `@node-rs/argon2` (an optional peer dependency, loaded on
 * the first hash or verification; Node.js only). Parameters not given are those of
 * `config/defaults.ts` (OWASP's 19 MiB, 2 passes, 1 lane).
 *
 * @param parameters Costs to use instead of the defaults. Hashes made with others are rehashed at
 *   their owner's next sign-in.
 */
export function argon2id(parameters: Partial<Argon2Parameters> = {}): PasswordHasher {
  const current: Argon2Parameters = { ...defaultArgon2Parameters, ...parameters }
  assertParameters(current)
  let dummy: string | undefined

  return {
    async hash(password) {
      const { hash } = await argon2Library()
      // The library declares Algorithm and Version as `const enum`s, which an isolated module
      // cannot read: these are their values for Argon2id and version 0x13.
      return hash(password, { ...current, algorithm: 2 as Algorithm, version: 1 as Version })
    },
    async verify(hash, password) {
      const library = await argon2Library()
      if (parseArgon2(hash) === null) return false
      try {
        return await library.verify(hash, password)
      } catch {
        // A PHC string the library refuses (parameters out of its range): it matches no password.
        return false
      }
    },
    needsRehash(hash) {
      const made = parseArgon2(hash)
      return (
        made === null ||
        made.algorithm !== "argon2id" ||
        made.version !== currentVersion ||
        made.memoryCost !== current.memoryCost ||
        made.timeCost !== current.timeCost ||
        made.parallelism !== current.parallelism ||
        made.outputLen !== current.outputLen
      )
    },
    dummyHash() {
      // Verification cost depends only on the parameters in the string, so random bytes in place
      // of a salt and tag give the full cost without hashing anything; they match no password
      // (but with probability 2^-256).
      dummy ??= `$argon2id$v=${currentVersion}$m=${current.memoryCost},t=${current.timeCost},p=${current.parallelism}$${randomPhcBase64(16)}$${randomPhcBase64(current.outputLen)}`
      return dummy
    },
  }
}

/**
 * Hashes of a random password, for hashers without `dummyHash`. Keyed by hasher, so a hasher
 * pays for one hash in its lifetime; weakly, so a hasher dropped with its configuration is freed.
 */
const fallbackDummyHashes = new WeakMap<PasswordHasher, Promise<string>>()

/**
 * Does the work of verifying `password` for an account that does not exist (or has no password)
 * and returns false, so that the sign-in's answer takes about as long as for a wrong password.
 *
 * @param hasher The hasher that verifies real passwords, so that the work is the same.
 * @param password The password that was typed.
 */
export async function dummyVerify(hasher: PasswordHasher, password: string): Promise<false> {
  let hash = hasher.dummyHash?.()
  if (hash === undefined) {
    let made = fallbackDummyHashes.get(hasher)
    if (!made) {
      made = hasher.hash(randomToken(32))
      fallbackDummyHashes.set(hasher, made)
    }
    hash = await made
  }
  await hasher.verify(hash, password)
  return false
}
