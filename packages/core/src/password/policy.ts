/**
 * Which new passwords are accepted, after NIST SP 800-63B (§3.1.1.2, "Password Verifiers").
 *
 * Policy:
 * - Length is the only strength rule: at least 8 characters by default (`minLength`, which may be
 *   raised but not lowered: NIST's floor; its revision 4 asks 15 where the password is the only
 *   factor), at most 256 (`maxLength`, never below the 64 NIST says to allow; the bound is in
 *   `config/defaults.ts` with its reason). No composition rules (a digit, a symbol…): NIST found
 *   they push people to predictable patterns.
 * - Every character is allowed, spaces and emoji included. The password is normalised to Unicode
 *   NFKC before its length is counted and before it is hashed or compared, so that the same
 *   password typed on two keyboards (a precomposed "é" or "e" plus a combining accent, a
 *   full-width digit) is the same password. Length counts code points, so an emoji counts once.
 * - Context-specific words are refused: the account's email address, its part before the `@`,
 *   and the app's name, compared without case and without punctuation or spaces. Kept modest on
 *   purpose: anything subtler refuses good passwords, and the breached-password check catches
 *   most derivations people actually use.
 * - Known-breached passwords are refused when the app turns the check on (`password/breach.ts`).
 *
 * Each refusal has a reason code for the page to explain.
 *
 * @module
 */
import { defaultPasswordLength } from "../config/defaults.js"
import type { BreachChecker, BreachCheckContext } from "./breach.js"

/** Why a new password was refused. */
export type PasswordProblem = "too-short" | "too-long" | "matches-context" | "breached"

export interface PasswordPolicyOptions {
  /** Fewest characters (code points, after normalisation). Default 8, and at least 8. */
  minLength?: number
  /** Most characters. Default 256, and at least 64. */
  maxLength?: number
  /** A breached-password check, such as `pwnedPasswords()`. Default: none. */
  breached?: BreachChecker | false
}

/** A policy with its defaults applied and checked. */
export interface PasswordPolicy {
  readonly minLength: number
  readonly maxLength: number
  readonly breached: BreachChecker | false
}

/** What a password is checked against besides its length. */
export interface PasswordContext extends BreachCheckContext {
  /** The account's email address. */
  email?: string | null
  /** The app's name, as the pages show it. */
  appName?: string | null
}

export type PasswordCheck = { ok: true; password: string } | { ok: false; reason: PasswordProblem }

/**
 * The policy for `options`, with defaults applied.
 *
 * @throws TypeError naming the option, for a length that NIST's rules do not allow.
 */
export function passwordPolicy(options: PasswordPolicyOptions = {}): PasswordPolicy {
  const minLength = options.minLength ?? defaultPasswordLength.min
  const maxLength = options.maxLength ?? defaultPasswordLength.max
  if (!Number.isSafeInteger(minLength) || minLength < 8) {
    throw new TypeError(`password policy: "minLength" must be an integer of at least 8 (NIST SP 800-63B), got ${String(minLength)}`)
  }
  if (!Number.isSafeInteger(maxLength) || maxLength < Math.max(64, minLength)) {
    throw new TypeError(`password policy: "maxLength" must be an integer of at least 64 (NIST SP 800-63B) and at least "minLength", got ${String(maxLength)}`)
  }
  return { minLength, maxLength, breached: options.breached ?? false }
}

/** The password as it is counted, hashed and compared: Unicode NFKC. Apply it at sign-in too. */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC")
}

/** Case, punctuation and spaces folded away, for comparing with context words. */
function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")
}

function contextWords({ email, appName }: PasswordContext): string[] {
  const words = [email, email?.slice(0, email.lastIndexOf("@")), appName]
  return words.filter((word): word is string => typeof word === "string").map(fold).filter((word) => word.length > 0)
}

/**
 * Checks a new password (at sign-up or a change) against the policy. On success returns the
 * normalised password, which is the one to hash.
 *
 * @param password The password as typed.
 * @param policy From {@link passwordPolicy}.
 * @param context The account's address and the app's name, and the logger for the breach check.
 */
export async function checkNewPassword(password: string, policy: PasswordPolicy, context: PasswordContext = {}): Promise<PasswordCheck> {
  // Bound the work before normalising a megabyte-long input. Composition merges at most 4 code
  // points into one (the longest canonical decomposition, such as "ᾄ": α and three marks) and a
  // code point is at most 2 UTF-16 units, so a longer string cannot normalise to maxLength.
  if (password.length > policy.maxLength * 4 * 2) return { ok: false, reason: "too-long" }
  const normalized = normalizePassword(password)
  let length = 0
  for (const _ of normalized) length++
  if (length < policy.minLength) return { ok: false, reason: "too-short" }
  if (length > policy.maxLength) return { ok: false, reason: "too-long" }
  const folded = fold(normalized)
  if (contextWords(context).includes(folded)) return { ok: false, reason: "matches-context" }
  // The checker gets the logger only: the address is none of its business.
  if (policy.breached && (await policy.breached(normalized, { logger: context.logger }))) return { ok: false, reason: "breached" }
  return { ok: true, password: normalized }
}
