/**
 * Types of the `email` provider kind (magic links, and one-time codes beside or instead of them).
 *
 * @module
 */
import type { CookieOption } from "../http/cookies.js"
import type { Awaitable, CommonProviderOptions, Theme } from "../types.js"

/**
 * The built-in email, localised for the request and themed: the sign-in link, a one-time code, or
 * both. Send it as it is, or write your own.
 */
export interface VerificationEmail {
  subject: string
  /** The plain-text part. */
  text: string
  /** The HTML part; every interpolated value is escaped. */
  html: string
}

/** What `sendVerificationRequest` receives. */
export interface SendVerificationRequestParams {
  /** The normalised email address to send to. */
  identifier: string
  /**
   * The sign-in link. It is a bearer credential until it is used or expires: never log it. In an
   * email with only a code (`code: "only"`, or a second factor) there is no link: it is then the
   * page where the code is typed.
   */
  url: string
  /** When the link stops working (with only a code: when the code does). */
  expires: Date
  /** The provider, with its defaults filled in. */
  provider: EmailConfig
  /** The raw token in the link (only a keyed hash of it is stored); with only a code, the code. Never log it. */
  token: string
  /**
   * The six-digit one-time code, when one is sent (the provider's `code` option, or a second
   * factor). It signs its holder in, in the browser that asked for it, for 10 minutes: never log it.
   */
  code?: string
  theme: Theme
  /** The sign-in request (its `Accept-Language` picked the language of `message`). */
  request: Request
  /** The built-in email for this link and/or code, in the request's language. */
  message: VerificationEmail
  /**
   * Set for the account page's emails, which this provider sends too (`account-page/email-change.ts`):
   * `change-email`, a link that proves a new address (not a sign-in link); `email-changed`, the
   * notice to the old address (`url` is the account page, `token` nothing to use). Undefined for
   * sign-in emails.
   */
  kind?: "change-email" | "email-changed"
}

/**
 * Counts hits per key in fixed windows: the storage behind the email rate limit. The built-in
 * store keeps counts in memory, per process; give one backed by a shared store (Redis, a database)
 * when the app runs in several processes.
 *
 * @example
 * ```ts
 * // ioredis: INCR, and start the window on the first hit.
 * const store: RateLimitStore = {
 *   async increment(key, windowMs) {
 *     const count = await redis.incr(key)
 *     if (count === 1) await redis.pexpire(key, windowMs)
 *     return count
 *   },
 * }
 * ```
 */
export interface RateLimitStore {
  /**
   * Adds one hit to `key` and returns how many hits `key` has in its current window, this one
   * included. A window starts with the first hit of a key and lasts `windowMs` milliseconds.
   */
  increment(key: string, windowMs: number): Awaitable<number>
}

/**
 * How many sign-in links may be requested in a window. A request over a limit is answered exactly
 * like one that sent a link (a redirect to the verify-request page), so the limit reveals nothing
 * about the address, and no email is sent.
 */
export interface EmailRateLimitOptions {
  /** Links per address per window; `false` for no per-address limit. Default 5. */
  perAddress?: number | false
  /** Links per client IP per window; `false` for no per-IP limit. Default 20. */
  perIp?: number | false
  /** The window, in seconds. Default 600 (10 minutes). */
  window?: number
  /** Where counts are kept. Default: in memory, shared by the process (not across processes). */
  store?: RateLimitStore
  /**
   * The client's IP address, for the per-IP limit. Default: the last `X-Forwarded-For` entry when
   * the configuration explicitly trusts the proxy in front of it (`trustHost: true` or
   * `AUTH_TRUST_HOST=true`), else none, and then there is no per-IP limit: a header any client can
   * set is never trusted by default. Return null when unknown.
   */
  clientIp?: (request: Request) => string | null | undefined
}

/** A provider that signs users in with a link sent by email. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** Sends the link. Throw to report a failure: the user sees `EmailSignin` and the token is removed. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /** Lifetime of a link in seconds. Default 24 hours. */
  maxAge?: number
  /**
   * Makes the token in the link. Default: 32 random bytes (256 bits), base64url. A replacement
   * must be as unguessable: the token is all an attacker needs.
   */
  generateVerificationToken?: () => Awaitable<string>
  /**
   * Normalises the address typed in the form, or throws to refuse it (the user sees
   * `EmailSignin`, the message is logged). Default: trim, lower-case, and refuse anything that is
   * not one plain `local@domain` address.
   */
  normalizeIdentifier?: (identifier: string) => string
  /** Keys the hash of stored tokens instead of the configuration's secret. */
  secret?: string
  /** The sender address. */
  from?: string
  /** An API key for HTTP email services. Default `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** Limits on how many links can be requested; `false` turns them off. */
  rateLimit?: EmailRateLimitOptions | false
  /**
   * Also sends a six-digit one-time code, for people who read their mail on another device than
   * the one they sign in on: `true` puts it in the email beside the link, `"only"` sends just the
   * code (no link is made). The code is typed on the verify-request page, in the browser that asked
   * for it (a sealed cookie binds them); it lasts 10 minutes and allows 5 tries. It also lets this
   * provider send codes as a second factor at sign-in. Default `false`: links only.
   */
  code?: boolean | "only"
}

/** The email code's cookie, by role (renamed through the `cookies` option). */
export interface EmailCodeCookies {
  /** The browser that asked for an email code (the code is only good there). */
  emailCode: CookieOption
}
