/**
 * Brute-force throttling of password sign-in, per account and per client IP.
 *
 * Policy (the numbers are the defaults of `config/defaults.ts`):
 * - An account (the address typed, whether or not it has an account, so that the throttle's
 *   answers do not tell which addresses exist) gets 5 free failed attempts. After that, each
 *   failure makes the next attempt wait 1 s, 2 s, 4 s… up to 60 s; from the 20th, each failure
 *   locks the account for 15 minutes. Failures are forgotten a day after the last one, and a
 *   successful sign-in forgets them at once.
 * - A client IP gets the same treatment with ten times the room (50 free, locked from 200), as
 *   one address may be a whole office behind a NAT. Only failures count for it, and a success
 *   does not clear it: one valid account must not reset the count of an IP spraying others.
 * - A refused attempt is answered like a wrong password, plus `Retry-After`, and its password is
 *   not checked. The lockout is temporary on purpose: a permanent one would let anyone lock
 *   anyone out by typing their address.
 *
 * The state of a key is a counter and its expiry only, which is what every adapter can store
 * atomically: each failure increments the count and sets the expiry to `now + forgetAfter`, so the
 * time of the last failure is `expires - forgetAfter`, and the wait (back-off or lockout) runs
 * from there. An expired counter has been forgotten.
 *
 * An attempt on an account is counted when it begins, not when it fails: parallel requests would
 * otherwise all pass the same check before any of them is counted, and a burst of hundreds fired
 * the moment a back-off ends would all be tried. When the returned count shows that another
 * attempt was counted in between, this one waits its turn like any attempt right after a failure.
 * Keys never hold an address in clear, only its SHA-256, so a shared store holds no list of who
 * signs in.
 *
 * @module
 */
import { backend } from "#crypto"
import { defaultEmailCodeThrottle, defaultPasswordThrottle } from "../config/defaults.js"
import { toHex } from "../crypto/encoding.js"
import type { RequestContext } from "../http/context.js"
import { processCounterStore, type Counter, type CounterStore } from "./counters.js"

/** How one kind of key (account or IP) is throttled. Seconds throughout. */
export interface ThrottleLimits {
  /** Failed attempts that cost no wait. */
  freeAttempts: number
  /** The longest back-off between attempts, in seconds, before the lockout. */
  maxDelay: number
  /** From this many failures on, each failure locks the key for `lockout`. */
  lockoutAfter: number
  /** How long a lockout lasts, in seconds. */
  lockout: number
  /** How long failures are remembered after the last one, in seconds; at least `lockout` and `maxDelay`. */
  forgetAfter: number
}

/** The throttle's options: the account's limits at the top level, the IP's under `ip`. */
export interface ThrottleOptions extends Partial<ThrottleLimits> {
  /** Limits per client IP, or false for none. Default: 10 times the room of an account. */
  ip?: Partial<ThrottleLimits> | false
  /** Where counts are kept. Default: the adapter's counters if it has them (the flow decides), else this process's memory. */
  store?: CounterStore
}

/** A throttle with its defaults applied and checked. */
export interface PasswordThrottle {
  readonly account: Readonly<ThrottleLimits>
  readonly ip: Readonly<ThrottleLimits> | false
  readonly store: CounterStore
  /** What its counters count, in their keys (`two-factor`, `email-code`): password attempts unless said otherwise. */
  readonly scope?: string
}

/** Whether an attempt may go ahead; when not, how many seconds to wait (for `Retry-After`). */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfter: number }

/** Whose attempt it is. */
export interface ThrottleSubject {
  /** The account's identifier as typed, normalised (the email address). */
  account: string
  /** The client's IP, when the app can tell it (see the email provider's `clientIp`). */
  ip?: string | null
}

function limits(options: Partial<ThrottleLimits>, defaults: ThrottleLimits, where: string): ThrottleLimits {
  const resolved = { ...defaults, ...options }
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`password throttle: "${where}${name}" must be a whole number of at least 0, got ${String(value)}`)
  }
  if (resolved.forgetAfter < Math.max(resolved.lockout, resolved.maxDelay) || resolved.forgetAfter === 0) {
    throw new TypeError(`password throttle: "${where}forgetAfter" must be positive and at least "${where}lockout" and "${where}maxDelay"`)
  }
  return resolved
}

/**
 * The throttle for `options`, with defaults applied; false when the app turns throttling off.
 *
 * @throws TypeError naming the option, for a value that is not a whole number of attempts or seconds.
 */
export function passwordThrottle(options: ThrottleOptions | false = {}): PasswordThrottle | false {
  if (options === false) return false
  const { ip, store, ...account } = options
  return {
    account: limits(account, defaultPasswordThrottle.account, ""),
    ip: ip === false ? false : limits(ip ?? {}, defaultPasswordThrottle.ip, "ip."),
    store: store ?? processCounterStore,
  }
}

/** The throttle of email codes as a first factor, per address (`email-code:<address>`), with its own limits. */
export function emailCodeThrottle(store: CounterStore): PasswordThrottle {
  return { ...defaultEmailCodeThrottle, store, scope: "email-code" }
}

/**
 * Whose one-time-code attempt it is (second factors, email codes): `account`, and the client's IP
 * by the configuration's rule (`trustedProxy`), as no other rule is configured for codes.
 */
export function codeSubject(ctx: RequestContext, account: string): ThrottleSubject {
  return { account, ip: ctx.clientAddress }
}

/** No real IP is this long: a longer value (from an app's `clientIp`) is cut, not stored whole. */
const maxIpLength = 100

async function accountKey(throttle: PasswordThrottle, account: string): Promise<string> {
  // Lower-cased here as well as wherever the flow normalises the address: "Alice@…" must not get
  // a fresh allowance.
  return `sesame:${throttle.scope ?? "password"}:account:${toHex(await backend.sha256(account.trim().toLowerCase()))}`
}

function ipKey(throttle: PasswordThrottle, ip: string | null | undefined): string | null {
  return ip ? `sesame:${throttle.scope ?? "password"}:ip:${ip.slice(0, maxIpLength)}` : null
}

/** Milliseconds to wait after the last of `count` failures before another attempt. */
function waitAfter(limits: ThrottleLimits, count: number): number {
  if (count >= limits.lockoutAfter) return limits.lockout * 1000
  if (count >= limits.freeAttempts) return Math.min(2 ** (count - limits.freeAttempts), limits.maxDelay) * 1000
  return 0
}

/** Milliseconds from now until the key under `counter` may try again (0: now). */
function remaining(limits: ThrottleLimits, counter: Counter | null, now: number): number {
  if (!counter) return 0
  const lastFailure = counter.expires.getTime() - limits.forgetAfter * 1000
  return Math.max(0, lastFailure + waitAfter(limits, counter.count) - now)
}

function decision(waitMs: number): ThrottleDecision {
  return waitMs > 0 ? { allowed: false, retryAfter: Math.ceil(waitMs / 1000) } : { allowed: true }
}

/**
 * Before a password is checked: whether the attempt may go ahead. When it may, it is counted
 * against the account at once (and forgotten by {@link attemptSucceeded}); when it may not, the
 * flow answers as for a wrong password, with `Retry-After: retryAfter`, and counts nothing.
 */
export async function beginAttempt(throttle: PasswordThrottle, subject: ThrottleSubject): Promise<ThrottleDecision> {
  const now = Date.now()
  const accountKeyName = await accountKey(throttle, subject.account)
  const ipKeyName = throttle.ip ? ipKey(throttle, subject.ip) : null
  const [account, ip] = await Promise.all([throttle.store.getCounter(accountKeyName), ipKeyName ? throttle.store.getCounter(ipKeyName) : null])
  const wait = Math.max(remaining(throttle.account, account, now), throttle.ip ? remaining(throttle.ip, ip, now) : 0)
  if (wait > 0) return decision(wait)

  const counted = await throttle.store.incrementCounter(accountKeyName, new Date(now + throttle.account.forgetAfter * 1000))
  // More than one step up: other attempts began since the read above. Those were failures as far
  // as this one knows, the last of them just now.
  const before = counted.count - 1
  if (before > (account?.count ?? 0)) return decision(waitAfter(throttle.account, before))
  return { allowed: true }
}

/**
 * After a failed attempt (counted when it began): the seconds the account is now locked for, when
 * its failures reached `lockoutAfter` (a lockout, not the back-off before it), else undefined. What
 * the `sign-in.throttled` security event reports, once per lockout. One read, on failures only.
 */
export async function lockoutAfterFailure(throttle: PasswordThrottle, subject: ThrottleSubject): Promise<number | undefined> {
  const counter = await throttle.store.getCounter(await accountKey(throttle, subject.account))
  return counter && counter.count >= throttle.account.lockoutAfter ? throttle.account.lockout : undefined
}

/** After a wrong password: counts the failure against the client IP (the account's was counted when the attempt began). */
export async function attemptFailed(throttle: PasswordThrottle, subject: ThrottleSubject): Promise<void> {
  const key = throttle.ip ? ipKey(throttle, subject.ip) : null
  if (throttle.ip && key) await throttle.store.incrementCounter(key, new Date(Date.now() + throttle.ip.forgetAfter * 1000))
}

/** After the right password: forgets the account's failures. The IP's stay. */
export async function attemptSucceeded(throttle: PasswordThrottle, subject: ThrottleSubject): Promise<void> {
  await throttle.store.deleteCounter(await accountKey(throttle, subject.account))
}
