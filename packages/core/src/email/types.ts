/**
 * Types of the `email` provider kind (magic links).
 *
 * @module
 */
import type { Awaitable, CommonProviderOptions, Theme } from "../types.js"

export interface SendVerificationRequestParams {
  /** The normalised email address. */
  identifier: string
  /** The sign-in link. */
  url: string
  expires: Date
  provider: EmailConfig
  /** The raw token in the link (only its hash is stored). */
  token: string
  theme: Theme
  request: Request
}

/** A provider that signs users in with a link sent by email. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** Sends the link. Throw to report a failure (`EmailSignin`). */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /** Lifetime of a link in seconds. Default 24 hours. */
  maxAge?: number
  /** Makes the token in the link. Default: 32 random bytes. */
  generateVerificationToken?: () => Awaitable<string>
  /** Normalises the address. Default: trim, lower-case, and refuse malformed addresses. */
  normalizeIdentifier?: (identifier: string) => string
  /** Hashes tokens instead of the configuration's secret. */
  secret?: string
  /** The sender address. */
  from?: string
  /** An API key for HTTP email services. Default `AUTH_<ID>_KEY`. */
  apiKey?: string
}
