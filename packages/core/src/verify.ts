/**
 * `@sesame/core/verify`: checking an API token in a service that trusts the app (a resource
 * server), on `jose`, without the rest of Sesame and without the app's secret.
 *
 * ```ts
 * import { verifyApiToken, ApiTokenError } from "@sesame/core/verify"
 * const claims = await verifyApiToken(bearer, {
 *   jwksUrl: "https://app.example.com/auth/jwks",
 *   issuer: "https://app.example.com/auth",
 *   audience: "https://api.example.com",
 * })
 * claims.sub // the user's id
 * ```
 *
 * Policy: only the asymmetric algorithms Sesame signs with are accepted (`EdDSA`, `ES256`, `RS256`),
 * so a token with `alg: none`, or one MACed with HS256 using the public key as the secret, is
 * refused before any key is looked at; `typ` must be `at+jwt`; `iss`, `aud`, `exp` and `nbf`
 * are checked with a clock tolerance of 5 seconds; `sub` must be present. A remote key set is
 * fetched once and kept per URL (re-fetched when a token names a `kid` it lacks, at most every 30
 * seconds, and every 5 minutes anyway).
 *
 * @module
 */
import { createRemoteJWKSet, createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from "jose"

/** The claims of a verified API token. */
export interface ApiTokenClaims extends JWTPayload {
  /** The user's id. */
  sub: string
  iss: string
  exp: number
  iat: number
  jti: string
}

export interface VerifyApiTokenOptions {
  /** The app's key set: `https://app.example.com/auth/jwks`. Either this or `jwks`. */
  jwksUrl?: string | URL
  /** The key set itself (`{ keys: [...] }`), when it is distributed some other way. */
  jwks?: JSONWebKeySet
  /** The `iss` the app writes: by default its URL up to the base path (`https://app.example.com/auth`). */
  issuer: string
  /** The `aud` this service answers to (one of the token's audiences must be it). */
  audience: string | string[]
  /** Seconds of clock difference allowed. Default 5. */
  clockTolerance?: number
  /** The algorithms accepted, a subset of the default `["EdDSA", "ES256", "RS256"]`. */
  algorithms?: ("EdDSA" | "ES256" | "RS256")[]
}

/** Why a token was refused. */
export type ApiTokenErrorCode = "malformed" | "expired" | "not-yet-valid" | "invalid-claims" | "invalid-signature" | "unknown-key" | "keys-unavailable"

/** A token that does not verify, with `code` saying why. Answer it with `401` (`keys-unavailable`: `503`). */
export class ApiTokenError extends Error {
  override readonly name = "ApiTokenError"
  constructor(
    readonly code: ApiTokenErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const signingAlgorithms = ["EdDSA", "ES256", "RS256"] as const

const remoteSets = new Map<string, JWTVerifyGetKey>()

function keysOf(options: VerifyApiTokenOptions): JWTVerifyGetKey {
  if (options.jwks) return createLocalJWKSet(options.jwks)
  if (!options.jwksUrl) throw new TypeError("verifyApiToken: give `jwksUrl` (the app's <basePath>/jwks) or `jwks`.")
  const url = new URL(options.jwksUrl)
  let set = remoteSets.get(url.href)
  if (!set) {
    set = createRemoteJWKSet(url, { cooldownDuration: 30_000, cacheMaxAge: 300_000 })
    remoteSets.set(url.href, set)
  }
  return set
}

/** The jose error `error` as an {@link ApiTokenError}. */
function refusal(error: unknown): ApiTokenError {
  if (error instanceof errors.JWTExpired) return new ApiTokenError("expired", "The token has expired.", { cause: error })
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf" || error.claim === "iat") return new ApiTokenError("not-yet-valid", "The token is not valid yet.", { cause: error })
    return new ApiTokenError("invalid-claims", `The token's "${error.claim}" claim is not accepted.`, { cause: error })
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new ApiTokenError("invalid-signature", "The token's signature does not verify.", { cause: error })
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new ApiTokenError("unknown-key", "No published key verifies the token.", { cause: error })
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || (error instanceof Error && !(error instanceof errors.JOSEError))) {
    return new ApiTokenError("keys-unavailable", "The key set could not be fetched.", { cause: error })
  }
  return new ApiTokenError("malformed", "The token is not a signed JWT this service accepts.", { cause: error })
}

/**
 * The claims of `token` when it is an API token of the app, signed by a published key, for this
 * `audience`, from `issuer`, and current. Throws an {@link ApiTokenError} otherwise.
 */
export async function verifyApiToken(token: string, options: VerifyApiTokenOptions): Promise<ApiTokenClaims> {
  if (typeof options?.issuer !== "string" || !options.issuer) throw new TypeError("verifyApiToken: `issuer` is required.")
  if (options.audience === undefined || (Array.isArray(options.audience) && options.audience.length === 0)) {
    throw new TypeError("verifyApiToken: `audience` is required.")
  }
  const algorithms = (options.algorithms ?? [...signingAlgorithms]).filter((alg) => (signingAlgorithms as readonly string[]).includes(alg))
  if (algorithms.length === 0) throw new TypeError('verifyApiToken: `algorithms` must name "EdDSA", "ES256" or "RS256".')
  const keys = keysOf(options)
  if (typeof token !== "string" || token.length === 0) throw new ApiTokenError("malformed", "No token was given.")
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms,
      issuer: options.issuer,
      audience: options.audience,
      typ: "at+jwt",
      clockTolerance: options.clockTolerance ?? 5,
      requiredClaims: ["sub", "exp", "iat", "jti"],
    })
    return payload as ApiTokenClaims
  } catch (error) {
    throw refusal(error)
  }
}
