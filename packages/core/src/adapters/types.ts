/**
 * The adapter contract: how Sesame reads and writes users, accounts, sessions, verification tokens
 * and authenticators (the spec's operations, which Auth.js's adapters implement), with the
 * management operations Sesame adds on those tables; and `store`, the generic store where
 * everything else lives (password hashes, counters, second factors, signing keys, plugins' data),
 * declared as models by the capability that keeps it. Every method is optional; configuration
 * validation names the methods the chosen features need, and a call to a missing method fails
 * with `MissingAdapterMethods`.
 *
 * Two rules go beyond Auth.js:
 * - `sessionToken` is always the SHA-256 (hex) of the cookie's token, never the token itself, so a
 *   copy of the sessions table holds nothing a browser could use.
 * - `transaction`, when present, runs a multi-step write (create a user and link its account, say)
 *   atomically, so a failure half-way leaves nothing behind.
 *
 * @module
 */
import type { ModelDeclaration, Store } from "../store/model.js"
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
   * "totp"]`). Given only to adapters with a generic store (Sesame's own, which keep it in a
   * `factors` column); with another adapter a database session has no `factors`.
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





/** The persistence contract. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Removes the user with their accounts, sessions, authenticators, and their rows in the store (`references: { model: "user" }`). */
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
  /**
   * User management (admin tools): a page of users, by email then id, with the app's user fields
   * as `getUser` returns them (never a password hash). `search` is a case-insensitive part of the
   * email or the name (trimmed; empty: every user), matched as plain text, never as a pattern;
   * `limit` is 1 to 100; `cursor` is the `next` of the page before (the adapter's own, opaque),
   * `next` null on the last page. A `limit` out of range or a cursor the adapter did not give is
   * a `TypeError` (`checkUserListQuery` in `list-users.ts` checks all three).
   */
  listUsers?(query: { search?: string; limit: number; cursor?: string }): Awaitable<{ users: AdapterUser[]; next: string | null }>
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
  /**
   * Runs `fn` with an adapter bound to one transaction: committed when `fn` resolves, rolled back
   * when it throws.
   */
  transaction?<T>(fn: (adapter: Adapter) => Promise<T>): Promise<T>
  /**
   * The generic store of declared models (`@sesame/core/adapters`' `Store`): what feature modules and
   * plugins keep beyond the spec's tables. Without it, the modules that store something are off
   * (the start-up log says which); the rest of Sesame works as before.
   */
  store?: Store
  /**
   * This adapter, storing the app's user fields (`user.fields`) as well: `model` is their model of
   * the users table (`userModel`: `id` and the declared fields, each with its column). The adapter
   * it returns writes them in `createUser` and `updateUser` (those the call gives) and returns them,
   * typed as declared, with every user it reads (`getSessionAndUser` too). Sesame calls it once per
   * configuration. Without it, Sesame still passes the fields to `createUser` and `updateUser`, as
   * Auth.js passes a profile's, and reads what the adapter returns.
   */
  withUserFields?(model: ModelDeclaration): Adapter
}
