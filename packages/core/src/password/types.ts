/**
 * Types of the `password` provider kind: accounts with an email address and a password that
 * Sesame keeps (hashed, through the adapter), with sign-up, address confirmation and a forgotten
 * password.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { Awaitable, CommonProviderOptions, Theme } from "../types.js"
import type { VerificationEmail } from "../email/types.js"
import type { PasswordHasher } from "./hash.js"
import type { PasswordPolicyOptions } from "./policy.js"
import type { ThrottleOptions } from "./throttle.js"

/**
 * Why an email is sent:
 * - `verify-email`: a new account's address is to be confirmed (the link confirms it and signs in);
 * - `reset-password`: a forgotten password (the link opens the page that sets a new one);
 * - `account-exists`: someone signed up with an address that already has an account (the link
 *   sets a new password; nothing changes unless the owner uses it);
 * - `no-account`: a forgotten password was asked for an address without an account (the link is
 *   the sign-up page).
 *
 * Every request gets an email whether or not the address has an account, so that neither the
 * answer nor its timing tells a visitor who has one; the email tells the owner what happened.
 */
export type PasswordEmailKind = "verify-email" | "reset-password" | "account-exists" | "no-account"

/** What `sendEmail` receives. */
export interface PasswordEmailParams {
  /**
   * Why it is sent ({@link PasswordEmailKind}), or one of the account page's emails, which the
   * first `email` or `password` provider sends (`account-page/email-change.ts`): `change-email`,
   * the link that proves a new address; `email-changed`, the notice to the old one (its link is
   * the account page).
   */
  kind: PasswordEmailKind | "change-email" | "email-changed"
  /** The normalised address to send to. */
  to: string
  /** The link of the email. For `verify-email` and `reset-password` it is a bearer credential until used or expired: never log it. */
  url: string
  /** When the link stops working; undefined for `no-account`, whose link is the sign-up page. */
  expires: Date | undefined
  /** The built-in email for this kind, in the language of the request: send it as it is, or write your own. */
  message: VerificationEmail
  theme: Theme
  /** The request that caused the email (its `Accept-Language` picked the language of `message`). */
  request: Request
}

/** Options of `Password()`. */
export interface PasswordConfig extends CommonProviderOptions {
  type: "password"
  /**
   * Sends the provider's emails (see {@link PasswordEmailKind}). Throw to report a failure: it is
   * logged (without the link), the flow's answer does not change, and a link that was not sent is
   * never usable. `smtpSender` from `@sesame/core/providers/nodemailer` makes one from an SMTP
   * server.
   */
  sendEmail: (params: PasswordEmailParams) => Awaitable<void>
  /** Makes and checks hashes. Default `argon2id()` (`@sesame/core/password`); wrap it with `withLegacyHashes` to accept imported hashes. */
  hasher?: PasswordHasher
  /** Which new passwords are accepted. Default: NIST SP 800-63B, at least 8 characters, no breach check. */
  policy?: PasswordPolicyOptions
  /**
   * Whether an account must confirm its address before its first sign-in. Default true. With
   * false, sign-up signs a new account in at once, while a sign-up with a taken address still
   * ends on "check your email" (and the owner is told): the difference tells a visitor that the
   * address has an account, so keep the default where that matters.
   */
  requireEmailVerification?: boolean
  /** Whether the sign-up page and endpoint are offered. Default true; false for apps that create accounts themselves. */
  signUp?: boolean
  /** Lifetime of an address-confirmation link, in seconds. Default 24 hours. */
  verificationMaxAge?: number
  /** Lifetime of a password-reset link, in seconds. Default 1 hour. */
  resetMaxAge?: number
  /**
   * Brute-force throttling of sign-ins, per account and per client address (see `ThrottleOptions`).
   * On by default, on the adapter's counters; false turns it off.
   */
  throttle?: (ThrottleOptions & { clientIp?: (request: Request) => string | null | undefined }) | false
  /** Emails per address in 15 minutes (sign-ups, resets, confirmations together). Default 3. */
  emailsPerAddress?: number
  /** Normalises the typed address, or throws to refuse it. Default: trim, lower-case, one plain `local@domain`. */
  normalizeIdentifier?: (identifier: string) => string
}

/** What the `passwordChange` event says. */
export interface PasswordChangeMessage {
  user: AdapterUser
  how: "set" | "changed" | "reset"
  sessionsEnded: number
}

/** Password accounts' event (part of `EventCallbacks`). */
export interface PasswordEvents {
  /**
   * A user's password was set (`set`: a first password, `setPassword`), changed by its owner
   * (`changed`: `changePassword`), or replaced through a reset link (`reset`). Never carries the
   * password or its hash. `sessionsEnded` counts the database sessions that were ended with it.
   */
  passwordChange: (message: PasswordChangeMessage) => Awaitable<void>
}
