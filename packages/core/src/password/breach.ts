/**
 * The breached-password check: is a new password in a public list of passwords seen in breaches?
 *
 * Policy:
 * - Off unless the app turns it on: it sends data about the password to a third party, even if
 *   only a little, and makes sign-up depend on that party's latency.
 * - Only the first 5 hex digits of the password's SHA-1 leave the server (the k-anonymity range
 *   API of Have I Been Pwned): the service answers with every suffix under that prefix (hundreds)
 *   and the match is made here. With `Add-Padding: true` the answer is padded with fake suffixes
 *   of count 0 to a random size, so its length does not hint at the prefix; those lines are not
 *   matches.
 * - It fails open: when the service cannot be reached, answers with an error or is slower than
 *   the timeout, the failure is logged and the password counts as not breached. Refusing every
 *   sign-up and password change during someone else's outage would cost more than the check
 *   protects; the other rules of the policy still apply.
 *
 * @module
 */
import { defaultBreachCheck } from "../config/defaults.js"
import { encoder, toHex } from "../crypto/encoding.js"
import { printError, type LoggerInstance } from "../logger.js"

/** What the password flow passes to a {@link BreachChecker} besides the password. */
export interface BreachCheckContext {
  /** Where a failed check is reported; the built-in logger's printing when absent. */
  logger?: Pick<LoggerInstance, "error">
}

/**
 * Whether `password` (already normalised, see `password/policy.ts`) is known from breaches. A
 * checker that cannot tell should report why through the context's logger and resolve to false.
 */
export type BreachChecker = (password: string, context?: BreachCheckContext) => Promise<boolean>

export interface PwnedPasswordsOptions {
  /**
   * Where the range API is: `${baseUrl}/range/<5 hex digits>`. Default
   * `https://api.pwnedpasswords.com`; point it at a mirror of the list that you host, if you like.
   */
  baseUrl?: string
  /** The `fetch` to use (a proxy-aware one, say). Default `globalThis.fetch`. */
  fetch?: typeof fetch
  /** Milliseconds to wait for the whole answer before giving up (and letting the password through). Default 2000. */
  timeout?: number
}

/**
 * Reported (to the logger) when the breached-password check could not be made and the password
 * was accepted without it. Its message names the service, never the password or its digest.
 */
export class BreachCheckUnavailable extends Error {
  override readonly name = "BreachCheckUnavailable"
}

/**
 * A {@link BreachChecker} on the Have I Been Pwned "Pwned Passwords" range API (or a service
 * speaking the same protocol), with padding, a timeout, and failing open.
 *
 * @see https://haveibeenpwned.com/API/v3#PwnedPasswords
 */
export function pwnedPasswords(options: PwnedPasswordsOptions = {}): BreachChecker {
  const baseUrl = (options.baseUrl ?? defaultBreachCheck.baseUrl).replace(/\/+$/, "")
  const timeout = options.timeout ?? defaultBreachCheck.timeout
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError(`pwnedPasswords: "timeout" must be a positive number of milliseconds, got ${String(timeout)}`)
  if (!URL.canParse(baseUrl)) throw new TypeError(`pwnedPasswords: "baseUrl" must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`)

  return async (password, context) => {
    const digest = toHex(new Uint8Array(await crypto.subtle.digest("SHA-1", encoder.encode(password)))).toUpperCase()
    const prefix = digest.slice(0, 5)
    const suffix = digest.slice(5)
    try {
      // Read at call time, so that a test or an instrumentation that replaces fetch is honoured.
      const fetchImpl = options.fetch ?? globalThis.fetch
      // The signal also bounds reading the body, not only the wait for headers.
      const response = await fetchImpl(`${baseUrl}/range/${prefix}`, { headers: { "add-padding": "true" }, signal: AbortSignal.timeout(timeout) })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const body = await response.text()
      // Lines are `SUFFIX:COUNT`, CRLF-separated; padding lines have a count of 0.
      return body.split("\n").some((line) => {
        const [candidate, count] = line.trim().split(":")
        return candidate?.toUpperCase() === suffix && Number(count) > 0
      })
    } catch (error) {
      const logger = context?.logger ?? { error: printError }
      logger.error(new BreachCheckUnavailable(`The breached-password check at ${baseUrl} failed; the password was accepted without it`, { cause: error }))
      return false
    }
  }
}
