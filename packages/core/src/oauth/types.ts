/**
 * Types of the `oauth` and `oidc` provider kinds.
 *
 * @module
 */
import type { Account, Awaitable, CommonProviderOptions, Profile, User } from "../types.js"

/** Checks protecting the callback. */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** What the token endpoint returned, with `expires_at` computed from `expires_in`. */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  /** Seconds since the epoch. */
  expires_at?: number
  session_state?: string
  [key: string]: unknown
}

/** The look of a provider's button on the sign-in page. */
export interface OAuthProviderButtonStyles {
  /** An SVG or image URL (a `data:` URL for bundled logos). */
  logo?: string
  brandColor?: string
  /** @deprecated Use `brandColor`. */
  bg?: string
  /** @deprecated Text colour is derived from `brandColor`. */
  text?: string
}

export type EndpointParams = Record<string, string | number | boolean | undefined>

export interface AuthorizationEndpointConfig {
  url?: string
  /** Added to the authorization URL's query (`scope`, `prompt`, `response_mode`…). */
  params?: EndpointParams
}

export interface TokenEndpointConfig {
  url?: string
  params?: EndpointParams
  /** Replaces the token request: receives the authorization code and returns the token set. */
  request?: (context: {
    provider: OAuthConfig
    params: { code: string; redirect_uri: string; code_verifier?: string }
    checks: { code_verifier?: string; nonce?: string; state?: string }
  }) => Awaitable<{ tokens: TokenSet }>
  /** Adjusts a non-conforming token response before it is processed. */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

export interface UserinfoEndpointConfig {
  url?: string
  params?: EndpointParams
  /** Replaces the userinfo request: returns the profile from the tokens. */
  request?: (context: { provider: OAuthConfig; tokens: TokenSet }) => Awaitable<Profile>
}

/** Client settings sent to, or agreed with, the authorization server. */
export interface OAuthClientOptions {
  /** Default `client_secret_basic`; `none` for public clients. */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"
  id_token_signed_response_alg?: string
  userinfo_signed_response_alg?: string
  /** For `private_key_jwt`: the client's private key (a CryptoKey, or a private JWK). */
  privateKey?: CryptoKey | JsonWebKey
  /** For `private_key_jwt`: the `kid` of `privateKey`. */
  privateKeyId?: string
  [key: string]: unknown
}

interface OAuthCommon<P> extends CommonProviderOptions {
  clientId?: string
  clientSecret?: string
  /** The issuer identifier; with it, endpoints are discovered. */
  issuer?: string
  /** The discovery document URL, when it is not under `issuer`. */
  wellKnown?: string
  jwks_endpoint?: string
  authorization?: string | AuthorizationEndpointConfig
  token?: string | TokenEndpointConfig
  userinfo?: string | UserinfoEndpointConfig
  /** Maps the provider's profile to the user. Default keeps id (`sub` or `id`), name, email, image. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>
  /**
   * Picks the tokens stored on the account. Default: `access_token`, `id_token`, `refresh_token`,
   * `expires_at`, `scope`, `token_type`, `session_state`.
   */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | null
  /**
   * Link this provider's account to an existing user with the same email, automatically.
   * Only safe with providers that verify email addresses. Default false.
   */
  allowDangerousEmailAccountLinking?: boolean
  /** Per-provider override of the configuration's `redirectProxyUrl`. */
  redirectProxyUrl?: string
  client?: OAuthClientOptions
  style?: OAuthProviderButtonStyles
}

/** A plain OAuth 2 provider. */
export interface OAuth2Config<P = Profile> extends OAuthCommon<P> {
  type: "oauth"
  /** Default `["pkce"]`. */
  checks?: OAuthCheck[]
}

/** An OpenID Connect provider. */
export interface OIDCConfig<P = Profile> extends OAuthCommon<P> {
  type: "oidc"
  /** Default `["pkce"]`; add `"nonce"` to bind the ID token to the browser. */
  checks?: OAuthCheck[]
  /** Read the profile from the ID token (default). False: ask the userinfo endpoint. */
  idToken?: boolean
}

export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>
