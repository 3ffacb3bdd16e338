/**
 * `@sesame/core/password`: password hashing, the new-password policy, the breached-password check
 * and the counter stores of sign-in throttling, for apps that keep passwords themselves behind a
 * `Credentials` provider (throttle its sign-ins with its `throttle` option).
 *
 * @example
 * ```ts
 * import { argon2id, checkNewPassword, passwordPolicy } from "@sesame/core/password"
 *
 * const hasher = argon2id()
 * const check = await checkNewPassword(input, passwordPolicy(), { email })
 * if (check.ok) await db.users.insert({ email, passwordHash: await hasher.hash(check.password) })
 * ```
 *
 * @module
 */
export { argon2id, dummyVerify, type Argon2Parameters, type PasswordHasher } from "./hash.js"
export { withLegacyHashes, type LegacyHashFormat } from "./legacy.js"
export {
  checkNewPassword,
  normalizePassword,
  passwordPolicy,
  type PasswordCheck,
  type PasswordContext,
  type PasswordPolicy,
  type PasswordPolicyOptions,
  type PasswordProblem,
} from "./policy.js"
export { BreachCheckUnavailable, pwnedPasswords, type BreachCheckContext, type BreachChecker, type PwnedPasswordsOptions } from "./breach.js"
export { importPasswordHash, type AdapterPassword } from "./storage.js"
export { memoryCounterStore, storeCounters, type Counter, type CounterStore, type MemoryCounterStoreOptions } from "./counters.js"
export type { ThrottleLimits, ThrottleOptions } from "./throttle.js"
