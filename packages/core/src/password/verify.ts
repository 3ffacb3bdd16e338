/**
 * The one throttled check of a typed password, shared by the sign-in, the address confirmation and
 * `changePassword`: the throttle decides whether the attempt may go ahead (and counts it); the
 * stored hash is checked, or, for an address without an account or without a password, the same
 * work is done on a dummy hash; a wrong password counts against the client's IP, a right one makes
 * the throttle forget the account's failures.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { AdapterPassword } from "./storage.js"
import { dummyVerify } from "./hash.js"
import type { PasswordProvider } from "./provider.js"
import { attemptFailed, attemptSucceeded, beginAttempt, lockoutAfterFailure } from "./throttle.js"
import { storedPassword } from "./storage.js"

/** The right password, with its account; or not, and with `retryAfter` when the throttle refused the attempt unchecked. */
export type PasswordVerdict =
  | { ok: true; user: AdapterUser; stored: AdapterPassword }
  | {
      ok: false
      retryAfter?: number
      /** This wrong password locked the account for this many seconds (the throttle's lockout). */
      lockout?: number
      /** The stored user of the address, when there is one: whose account the attempt was on (never told to the visitor). */
      userId?: string
    }

/**
 * Checks `typed` (null: missing or too long, a wrong password without hashing it) for the account
 * at `email`. `known` is that account's user and stored password when the caller has read them
 * already (a signed-in user), saving the lookups.
 */
export async function verifyPassword(
  provider: PasswordProvider,
  email: string,
  typed: string | null,
  ip: string | null,
  known?: { user: AdapterUser; stored: AdapterPassword | null },
): Promise<PasswordVerdict> {
  const { adapter, hasher, throttle } = provider
  const subject = { account: email, ip }
  if (throttle) {
    const decision = await beginAttempt(throttle, subject)
    if (!decision.allowed) return { ok: false, retryAfter: decision.retryAfter }
  }
  const user = known ? known.user : await adapter.getUserByEmail(email)
  const stored = known ? known.stored : user ? await storedPassword(adapter, user.id) : null
  const matches = typed !== null && (stored ? await hasher.verify(stored.hash, typed) : await dummyVerify(hasher, typed))
  if (!user || !stored || !matches) {
    const whose = user ? { userId: user.id } : {}
    if (!throttle) return { ok: false, ...whose }
    await attemptFailed(throttle, subject)
    const lockout = await lockoutAfterFailure(throttle, subject)
    return lockout === undefined ? { ok: false, ...whose } : { ok: false, lockout, ...whose }
  }
  if (throttle) await attemptSucceeded(throttle, subject)
  return { ok: true, user, stored }
}
