/**
 * Types of the `webauthn` provider kind (passkeys).
 *
 * @module
 */
import type { CredentialInput } from "../credentials/types.js"
import type { CookieOption } from "../http/cookies.js"
import type { CommonProviderOptions } from "../types.js"

/**
 * The relying party: who the credentials are for. By default it comes from the app's origin (the
 * request's, or `AUTH_URL`'s): `id` is its host name, `name` its host, `origin` the origin itself.
 */
export interface RelyingParty {
  /**
   * The RP ID: the app's registrable domain or a host name under it, e.g. `example.com` (then
   * passkeys also work on `login.example.com`). Never an IP address: browsers refuse those.
   */
  id: string
  /** Shown by some authenticators next to the passkey. */
  name: string
  /** The origin, or origins, a response may come from, e.g. `https://example.com`. */
  origin: string | string[]
}

/** When the authenticator must check that the user is who they say (PIN, biometrics). */
export type UserVerificationRequirement = "required" | "preferred" | "discouraged"

/** Whether the authenticator must store a discoverable credential (a passkey that needs no user name). */
export type ResidentKeyRequirement = "required" | "preferred" | "discouraged"

/**
 * A provider that signs users in with WebAuthn credentials. Needs `experimental.enableWebAuthn`
 * and an adapter with the authenticator methods. Make one with `@sesame/core/providers/passkey`
 * (passkeys: discoverable, user-verified) or `@sesame/core/providers/webauthn` (general).
 */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /**
   * Overrides parts of the relying party derived from the app's origin. The spelling is the one
   * Auth.js uses, so that its configurations carry over.
   */
  relayingParty?: Partial<RelyingParty>
  /**
   * Offer passkeys in the browser's autofill of the email field (WebAuthn conditional UI). At most
   * one provider may enable it, and its form must have a field whose `autocomplete` ends with
   * `webauthn`. Default true.
   */
  enableConditionalUI?: boolean
  /**
   * Fields of the form on the built-in sign-in page. Only `email` is read by the server: an
   * address without a user registers a passkey for a new user, a known one lists that user's
   * passkeys, none asks for any passkey of this site. Default: an optional email field with
   * `autocomplete="username webauthn"`.
   */
  formFields?: Record<string, CredentialInput>
  /** Default: `required` for passkeys, `preferred` for the general provider. */
  userVerification?: UserVerificationRequirement
  /** Default: `required` for passkeys, `preferred` for the general provider. */
  residentKey?: ResidentKeyRequirement
  /** Milliseconds the browser waits for the user; the challenge expires a minute later. Default 5 minutes. */
  timeout?: number
}

/** One of the signed-in user's passkeys, as `listPasskeys` returns it. */
export interface PasskeyInfo {
  /** Names the passkey in `renamePasskey` and `deletePasskey`: its credential id (base64). Not a secret. */
  id: string
  /** The name the user gave it, if any. */
  name: string | null
  /** When it was registered, when the adapter stores it. */
  createdAt: Date | null
  /** `singleDevice`, or `multiDevice` for a passkey that a password manager syncs. */
  deviceType: string
  /** Whether a synced passkey is backed up. */
  backedUp: boolean
  /** How the browser reaches the authenticator: `internal`, `hybrid`, `usb`, `nfc`, `ble`… */
  transports: string[]
}

/** The passkey ceremony's cookie, by role (renamed through the `cookies` option). */
export interface PasskeyCookies {
  /** The challenge of a ceremony in progress, sealed. */
  webauthnChallenge: CookieOption
}
