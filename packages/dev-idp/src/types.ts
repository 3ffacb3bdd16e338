/**
 * Options and handle of the development identity provider.
 *
 * @module
 */

/** A test account. Its `id` is the `sub` claim and what `login_hint` selects. */
export interface DevIdpAccount {
  id: string
  email: string
  name: string
  /** Default true. */
  email_verified?: boolean
  picture?: string
  /** Further claims, released with the `profile` scope. */
  claims?: Record<string, unknown>
}

/** A registered client (OAuth 2 client metadata, as oidc-provider takes it). */
export interface DevIdpClient {
  client_id: string
  client_secret?: string
  redirect_uris: string[]
  /**
   * Also accepted: a redirect URI that is one of these followed by a single path segment of
   * letters, digits, `_` and `-`. For an app whose callback paths are made at run time (an
   * organization's SSO connection is `callback/sso-<id>`). Development only: a real provider
   * compares redirect URIs exactly.
   */
  redirect_uri_prefixes?: string[]
  /** Default `client_secret_basic` (`none` when there is no secret). */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"
  /** For `private_key_jwt`: the client's public keys. */
  jwks?: { keys: (JsonWebKey & { kid?: string })[] }
  /** Default `["authorization_code", "refresh_token"]`. */
  grant_types?: string[]
}

export interface DevIdpOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number
  clients: DevIdpClient[]
  accounts: DevIdpAccount[]
  /**
   * False (the default): logins complete on their own, as the account named by `login_hint` (the
   * first account without one; an unknown hint answers `error=access_denied`), and consent is
   * implied. True: a page lets a person pick an account.
   */
  interactive?: boolean
  /** The name shown on the login page. Default "Sesame Dev IdP". */
  name?: string
  /** Access token lifetime in seconds. Default 3600. */
  accessTokenTtl?: number
  /** Issue a new refresh token on each refresh and retire the old one. Default true. */
  rotateRefreshTokens?: boolean
  /**
   * Put the scope claims (email, name…) in the ID token, as most providers do. Default true; false
   * keeps them in the userinfo response only, like oidc-provider's strict default.
   */
  idTokenClaims?: boolean
}

export interface DevIdp {
  /** The issuer identifier: `http://127.0.0.1:<port>`. Discovery is under it. */
  readonly issuer: string
  /** Where the IdP listens (the issuer, as a base URL for links). */
  readonly url: string
  readonly port: number
  /**
   * The private signing key (JWK, RS256, with `kid`) of the ID tokens. Only for tests that forge
   * tokens to check that a client rejects them.
   */
  readonly signingKey: JsonWebKey & { kid: string }
  /** Requests that reached the token endpoint, all or of one `grant_type`. */
  tokenRequests(grantType?: string): number
  /** Stops the server and drops every open connection. */
  close(): Promise<void>
}
