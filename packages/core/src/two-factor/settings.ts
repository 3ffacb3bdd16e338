/**
 * Two-factor sign-in as configured: on whenever the adapter stores second factors, unless the app
 * says `twoFactor: false`. Resolved once with the rest of the configuration (`config/resolve.ts`).
 *
 * @module
 */
import type { Adapter } from "../adapters/types.js"
import { missingMethods, type AdapterRequirement, type CheckedAdapter } from "../adapters/wrap.js"
import { defaultTwoFactor, defaultTwoFactorThrottle } from "./defaults.js"
import { counterStoreFor, type CounterStore } from "../password/counters.js"
import type { PasswordThrottle } from "../password/throttle.js"
import type { TwoFactorOptions } from "./options.js"

/** What two-factor sign-in needs of the adapter: its users, and the store its factors, codes and counters live in (`storage.ts`). */
export const twoFactorMethods: readonly AdapterRequirement[] = ["getUser", "store"]

export interface ResolvedTwoFactor {
  readonly adapter: CheckedAdapter
  /** The issuer name authenticator apps show; undefined: the request's host. */
  readonly issuer: string | undefined
  /** Seconds a remembered device skips the second factor; false when not offered. */
  readonly rememberDevice: number | false
  /** Whether codes by email are offered as a second factor (when an email provider sends codes). */
  readonly email: boolean
  /** Wrong codes per user and per client IP. */
  readonly throttle: PasswordThrottle
  /** Where single use of codes and pending sign-ins is recorded: the adapter's store, shared by every instance. */
  readonly counters: CounterStore
}

/**
 * Whether the configuration turns two-factor sign-in on: the adapter has every method it uses
 * and the app did not say `false`. The app's options without such an adapter are a mistake,
 * reported by the caller (`missing`), and so is an adapter that kept second factors the 0.1 way.
 */
export function twoFactorWanted(options: TwoFactorOptions | false | undefined, adapter: Adapter | undefined): { on: boolean; missing: AdapterRequirement[] } {
  if (options === false || !adapter) return { on: false, missing: options && !adapter ? [...twoFactorMethods] : [] }
  const missing = missingMethods(adapter, twoFactorMethods)
  // An adapter of Sesame 0.1 (or one wrapping it) kept second factors through methods of its own:
  // its users may have turned one on, so leaving two-factor sign-in off would let them in with
  // one factor. Refused until the adapter has the store where their factors now live.
  const keptFactors = releaseZeroOneMethods.some((method) => typeof (adapter as Record<string, unknown>)[method] === "function")
  return { on: missing.length === 0, missing: options === undefined && !keptFactors ? [] : missing }
}

/** The methods through which adapters of Sesame 0.1 kept second factors, before the store. */
const releaseZeroOneMethods = ["getTwoFactor", "setTwoFactor", "useRecoveryCode"]

export function resolveTwoFactor(options: TwoFactorOptions | undefined, adapter: CheckedAdapter): ResolvedTwoFactor {
  const rememberDevice = options?.rememberDevice ?? defaultTwoFactor.rememberDevice
  if (rememberDevice !== false && !(Number.isSafeInteger(rememberDevice) && rememberDevice > 0)) {
    throw new TypeError(`\`twoFactor.rememberDevice\` must be a whole number of seconds above 0, or false; got ${String(rememberDevice)}`)
  }
  if (options?.issuer !== undefined && (typeof options.issuer !== "string" || options.issuer.length === 0 || options.issuer.includes(":"))) {
    throw new TypeError("`twoFactor.issuer` must be a non-empty name without a colon.")
  }
  // The adapter's own counters: a code used on one instance must be used on every instance.
  const counters = counterStoreFor(undefined, adapter)
  return {
    adapter,
    issuer: options?.issuer,
    rememberDevice,
    email: options?.email ?? defaultTwoFactor.email,
    throttle: twoFactorThrottle(counters),
    counters,
  }
}

/**
 * The throttle of second-factor codes: the password throttle's mechanism with its own limits and
 * its own counters, keyed `user:<id>`.
 */
function twoFactorThrottle(store: CounterStore): PasswordThrottle {
  return { ...defaultTwoFactorThrottle, store, scope: "two-factor" }
}
