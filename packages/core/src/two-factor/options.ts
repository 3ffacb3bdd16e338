/**
 * The `twoFactor` option's types, and its cookies' roles.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { CookieOption } from "../http/cookies.js"
import type { Account, Awaitable, Profile, User } from "../types.js"

/** The `twoFactor` option: a second factor after the first, for users who turn one on. */
export interface TwoFactorOptions {
  /** The name authenticator apps show for the account. Default: the app's host name. */
  issuer?: string
  /**
   * "Remember this device": for how many seconds a browser that passed the second factor may skip
   * it on later sign-ins (the user ticks a box). Off (`false`) by default. A remembered device is
   * forgotten when the user's sessions are ended everywhere or the second factor changes.
   */
  rememberDevice?: number | false
  /**
   * Offer codes sent by email as a second factor, for users without an authenticator app. Needs an
   * `email` provider with `code` turned on, which sends them. Default `true`.
   */
  email?: boolean
}

/** The configuration's option for two-factor sign-in (part of `AuthConfig`). */
export interface TwoFactorConfig {
  /**
   * Two-factor sign-in (TOTP apps, codes by email, recovery codes), with the built-in pages to turn
   * it on. On whenever the adapter has a generic store (`adapter.store`, where second factors are
   * kept); `false` turns it off.
   */
  twoFactor?: TwoFactorOptions | false
}

/** Two-factor sign-in's cookies, by role (renamed through the `cookies` option). */
export interface TwoFactorCookies {
  /** A sign-in whose first factor passed, waiting for the second. */
  pendingSignIn: CookieOption
  /** A TOTP secret shown for setup, until a first code confirms it. */
  twoFactorSetup: CookieOption
  /** This browser passed the second factor and may skip it for a while ("remember this device"). */
  rememberedDevice: CookieOption
}

/** What a provider's `secondFactor` function decides on. */
export interface SecondFactorParams {
  user: User | AdapterUser
  account: Account | null
  /** OAuth/OIDC: the profile (with the ID token's claims, such as `amr`). */
  profile?: Profile
}

/** Two-factor sign-in's option on every provider (part of `CommonProviderOptions`). */
export interface TwoFactorProviderOptions {
  /**
   * Whether a sign-in with this provider asks for the user's second factor, when they have turned
   * one on (see `twoFactor`). Default `true`. A function decides per sign-in, e.g. to trust an
   * identity provider that says it asked for its own second factor:
   * `secondFactor: ({ profile }) => !(profile?.amr as string[] | undefined)?.includes("mfa")`.
   * A passkey sign-in with user verification never asks: it is two factors already.
   */
  secondFactor?: boolean | ((params: SecondFactorParams) => Awaitable<boolean>)
}

/** Two-factor sign-in's event (part of `EventCallbacks`). */
export interface TwoFactorEvents {
  /**
   * A user turned their second factor on (`enabled`, with its method), off (`disabled`), or made
   * new recovery codes (`recovery-codes`). Never carries a secret or a code.
   */
  twoFactorChange: (message: { user: AdapterUser; change: "enabled" | "disabled" | "recovery-codes"; method: "totp" | "email" }) => Awaitable<void>
}
