/**
 * What a provider hands to the sign-in decision: an identity it has verified, and nothing decided
 * about users yet. Each provider kind's folder ends its flow by building one of these and passing it
 * to `signIn` (`sign-in.ts`); a new way to sign in adds a variant here and its rules there.
 *
 * @module
 */
import type { AdapterAuthenticator, AdapterUser } from "../adapters/types.js"
import type { CredentialsProvider } from "../credentials/provider.js"
import type { EmailProvider } from "../email/resolve.js"
import type { OAuthProvider } from "../oauth/provider.js"
import type { PasswordProvider } from "../password/provider.js"
import type { TokenSet } from "../oauth/types.js"
import type { Profile, User } from "../types.js"
import type { PasskeyProvider } from "../webauthn/provider.js"

/** The app's `authorize` returned this user for these posted fields. */
export interface CredentialsIdentity {
  readonly kind: "credentials"
  readonly provider: CredentialsProvider
  /** What `authorize` returned, with its id as a string (made up when it had none). */
  readonly user: User & { id: string }
  /** The posted fields, without the CSRF token. */
  readonly fields: Record<string, unknown>
}

/** An OAuth or OIDC provider completed an authorization and described its user. */
export interface OAuthIdentity {
  readonly kind: "oauth"
  readonly provider: OAuthProvider
  /** The profile mapped to a user; `id` is the provider's account id. */
  readonly user: User & { id: string }
  readonly profile: Profile
  readonly tokens: TokenSet
  /** Whether the provider vouches that the person owns `user.email`. */
  readonly emailVerified: boolean
}

/** The owner of an address followed the link sent to it. */
export interface EmailIdentity {
  readonly kind: "email"
  readonly provider: EmailProvider
  /** The address, normalised. */
  readonly email: string
}

/** A stored passkey signed this ceremony's challenge; its account names `user`. */
export interface PasskeyIdentity {
  readonly kind: "passkey"
  readonly provider: PasskeyProvider
  readonly user: AdapterUser
  /** The passkey's account id (its credential id). */
  readonly providerAccountId: string
  /** The authenticator verified its user (PIN, biometrics): two factors in one. */
  readonly userVerified: boolean
}

/** A new passkey was made for this ceremony's challenge, for `user` (signed in, or new with an address). */
export interface NewPasskeyIdentity {
  readonly kind: "new-passkey"
  readonly provider: PasskeyProvider
  readonly user: AdapterUser | { email: string; name: null }
  /** The passkey's credential id, its account id too. */
  readonly credentialID: string
  /** The authenticator row to store for the user the decision picks. */
  readonly authenticator: (userId: string) => AdapterAuthenticator
  /** The authenticator verified its user (PIN, biometrics): two factors in one. */
  readonly userVerified: boolean
}

/**
 * The password provider vouches for this stored user: the password matched (and the address is
 * confirmed, where the provider requires it), or a confirmation link the provider sent was used.
 */
export interface PasswordIdentity {
  readonly kind: "password"
  readonly provider: PasswordProvider
  readonly user: AdapterUser
  readonly isNewUser: boolean
  /** Whether what was verified still holds once the session exists (the password was not changed meanwhile). */
  readonly recheck?: () => Promise<boolean>
}

export type VerifiedIdentity = CredentialsIdentity | OAuthIdentity | EmailIdentity | PasskeyIdentity | NewPasskeyIdentity | PasswordIdentity
