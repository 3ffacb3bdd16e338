/**
 * The `apiTokens` option's types.
 *
 * @module
 */
import type { JWK } from "jose"
import type { Awaitable, Session } from "../types.js"

/** Algorithms of the keys that sign API tokens: Ed25519, P-256, or RSA for older verifiers. */
export type ApiTokenAlgorithm = "EdDSA" | "ES256" | "RS256"

/**
 * The `apiTokens` option: short-lived JWTs, signed with an asymmetric key, that a signed-in user
 * gets from `GET <basePath>/token` (or the server from `getApiToken`) and hands to another service,
 * which checks them against the public keys at `GET <basePath>/jwks` (`verifyApiToken` from
 * `@sesame/core/verify`). Not to be confused with the provider tokens of `getAccessToken`: these
 * are the app's own, about its own user.
 */
export interface ApiTokenOptions {
  /** The `aud` claim: the service, or services, the tokens are for. Verifiers check it. */
  audience: string | string[]
  /**
   * The `iss` claim. Default: `AUTH_URL`'s origin plus the base path
   * (`https://app.example.com/auth`). It never comes from a request's `Host` or
   * `X-Forwarded-Host`: without this option and without `AUTH_URL`, tokens are issued only to
   * requests for a loopback host (local development), and any other request fails with the
   * configuration error (`UntrustedHost`). Set it when verifiers expect another issuer than that URL.
   */
  issuer?: string
  /** Lifetime of a token in seconds. Default 900 (15 minutes). */
  maxAge?: number
  /** The algorithm of generated keys. Default `"EdDSA"` (Ed25519). */
  algorithm?: ApiTokenAlgorithm
  /**
   * Private keys as JWKs, each with `kid` and `alg`, newest first: the first signs, all are
   * published. Given, they replace generated keys (and the adapter is not asked for any).
   */
  keys?: JWK[]
  /**
   * How long a generated key signs, in seconds, before a new one takes over. Default 30 days. An
   * old key stays published until the last token it signed has expired.
   */
  rotationAge?: number
  /**
   * Claims to add to each token, from the user's id (the token's `sub`) and the session as the
   * `session` callback made it. Registered claims (`iss`, `aud`, `sub`, `iat`, `exp`, `nbf`,
   * `jti`) cannot be replaced.
   */
  claims?: (params: { userId: string; session: Session }) => Awaitable<Record<string, unknown>>
}

/** The configuration's option for API tokens (part of `AuthConfig`). */
export interface ApiTokensConfig {
  /** Signed API tokens for other services, with their public keys published (see {@link ApiTokenOptions}). Off by default. */
  apiTokens?: ApiTokenOptions
}
