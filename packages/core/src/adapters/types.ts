/**
 * The adapter contract: how Sesame reads and writes users, accounts, sessions, verification tokens,
 * authenticators, password hashes and attempt counters. Every method is optional; configuration validation names the methods the
 * chosen features need, and a call to a missing method fails with `MissingAdapterMethods`.
 *
 * Two rules go beyond Auth.js:
 * - `sessionToken` is always the SHA-256 (hex) of the cookie's token, never the token itself, so a
 *   copy of the sessions table holds nothing a browser could use.
 * - `transaction`, when present, runs a multi-step write (create a user and link its account, say)
 *   atomically, so a failure half-way leaves nothing behind.
 *
 * @module
 */
import type { Account, AuthFactor, Awaitable, User } from "../types.js"

/** A user as stored. */
export interface AdapterUser extends User {
  id: string
  email: string
  /** Null until the first successful email sign-in, then its date. */
  emailVerified: Date | null
}

/** A provider account as stored. */
export interface AdapterAccount extends Account {
  userId: string
  type: "oauth" | "oidc" | "email" | "webauthn"
}

/** A database session as stored. */
export interface AdapterSession {
  /** SHA-256 (hex) of the session cookie's token. */
  sessionToken: string
  userId: string
  /** Absolute expiry. */
  expires: Date
  /** When the session started. Stored by adapters that implement session management. */
  createdAt?: Date | null
  /** When the session was last extended (so, at the `updateAge` resolution, last used). */
  lastUsedAt?: Date | null
  /** The `User-Agent` of the request that started the session. */
  userAgent?: string | null
  /**
   * How the user proved who they are at the sign-in that started the session (`["password",
   * "totp"]`). Stored by adapters that implement second factors (`getTwoFactor`).
   */
  factors?: AuthFactor[] | null
}

/** A single-use email sign-in token as stored. */
export interface VerificationToken {
  /** The email address. */
  identifier: string
  /** HMAC-SHA-256 (hex) of the emailed token, keyed with the secret: never the token itself. */
  token: string
  expires: Date
}

/** A WebAuthn credential as stored. */
export interface AdapterAuthenticator {
  /** base64 */
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  /** base64 */
  credentialPublicKey: string
  /** Comma-separated transports (`usb,nfc,internal`…). */
  transports?: string | null
  credentialDeviceType: string
  /** A name the user gave the passkey. */
  name?: string | null
  createdAt?: Date | null
}

/** A user's password as stored: only its hash, never the password. */
export interface AdapterPassword {
  userId: string
  /** The hash, as its hasher writes it: a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) or an imported format (`$2b$…`). */
  hash: string
  /** When the password was last set. */
  updatedAt: Date
}

/** A counter of attempts under a key (brute-force defence, rate limits), kept until `expires`. */
export interface AdapterCounter {
  key: string
  count: number
  expires: Date
}

/**
 * A user's second factor as stored. A user has at most one: codes from an authenticator app
 * (`totp`), or codes sent to their email address (`email`).
 */
export interface AdapterTwoFactor {
  userId: string
  method: "totp" | "email"
  /** The TOTP secret, encrypted under the app's secret (a compact JWE); null for `email`. */
  secret: string | null
  /** When the user turned it on (after a first code confirmed it). */
  enabledAt: Date
  /**
   * "Remember this device" cookies issued before this instant no longer skip the second factor:
   * set when the user's sessions are ended everywhere. Null when never.
   */
  devicesRevokedAt: Date | null
}

/** A key that signs API tokens, as stored. */
export interface AdapterSigningKey {
  /** The key id (`kid`), random. */
  id: string
  /** `EdDSA`, `ES256` or `RS256`. */
  algorithm: string
  /** The public key, a JWK as JSON text: published at `<basePath>/jwks`. */
  publicKey: string
  /** The private key, a JWK encrypted under the app's secret (a compact JWE): never usable from a copy of the database alone. */
  privateKey: string
  createdAt: Date
}

/** The persistence contract. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Removes the user with their accounts, sessions, authenticators, password, second factor and recovery codes. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
  unlinkAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | undefined | void>
  /** Null when there is no such account. */
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /** Updates the token set of an account (used by access-token refresh). */
  updateAccount?(account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | null | undefined | void>
  /** Lists a user's accounts. */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>
  /** Session management: a user's sessions. */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>
  /** Session management: removes every session of a user but the one named in `except`; returns how many. */
  deleteSessionsByUserId?(userId: string, except?: string): Awaitable<number>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns and deletes the token in one step, so it can be used once. Null when absent. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /** Throws when it fails. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  /** Null when there is no such authenticator. */
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /** `[]` for an unknown user; throws on other failures. */
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /** Throws when it fails (including for an unknown credential). */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /** Renames a passkey. Throws for an unknown credential. */
  updateAuthenticator?(credentialID: string, data: Partial<Pick<AdapterAuthenticator, "name">>): Awaitable<AdapterAuthenticator>
  /** Removes a passkey. */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null | undefined | void>
  /** The user's password, or null when they have none. */
  getPassword?(userId: string): Awaitable<AdapterPassword | null>
  /** Stores the user's password hash, replacing any earlier one. Throws for an unknown user. */
  setPassword?(password: AdapterPassword): Awaitable<AdapterPassword>
  /** Removes the user's password (nothing when they have none). */
  deletePassword?(userId: string): Awaitable<void>
  /**
   * Adds one to the counter `key` and sets its expiry to `expires`, in one atomic step: a counter
   * that is missing or has expired starts again at 1. Returns the counter after the increment.
   * Concurrent increments of one key must each count (no lost update).
   */
  incrementCounter?(key: string, expires: Date): Awaitable<AdapterCounter>
  /** The counter `key`, or null when it is missing or has expired. */
  getCounter?(key: string): Awaitable<AdapterCounter | null>
  /** Removes the counter `key` (nothing when it is missing). */
  deleteCounter?(key: string): Awaitable<void>
  /** The user's second factor, or null when they have none. */
  getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
  /** Stores the user's second factor, replacing any earlier one. Throws for an unknown user. */
  setTwoFactor?(twoFactor: AdapterTwoFactor): Awaitable<AdapterTwoFactor>
  /** Removes the user's second factor and their recovery codes (nothing when they have none). */
  deleteTwoFactor?(userId: string): Awaitable<void>
  /** Replaces all of the user's recovery codes with these hashes (an empty list removes them). */
  setRecoveryCodes?(userId: string, hashes: string[]): Awaitable<void>
  /**
   * Removes the user's recovery code with this hash, in one atomic step, and says whether it was
   * there: of two concurrent calls with one hash, exactly one gets `true`.
   */
  useRecoveryCode?(userId: string, hash: string): Awaitable<boolean>
  /** How many unused recovery codes the user has. */
  countRecoveryCodes?(userId: string): Awaitable<number>
  /** Every stored signing key of API tokens, in any order. */
  listSigningKeys?(): Awaitable<AdapterSigningKey[]>
  /** Stores a new signing key. */
  createSigningKey?(key: AdapterSigningKey): Awaitable<AdapterSigningKey>
  /** Removes a retired signing key (nothing when it is missing). */
  deleteSigningKey?(id: string): Awaitable<void>
  /**
   * Runs `fn` with an adapter bound to one transaction: committed when `fn` resolves, rolled back
   * when it throws.
   */
  transaction?<T>(fn: (adapter: Adapter) => Promise<T>): Promise<T>
}
