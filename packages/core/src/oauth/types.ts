/**
 * Types of the `oauth` and `oidc` provider kinds.
 *
 * @module
 */
import type { customFetch } from "../symbols.js"
import type { Account, Awaitable, CommonProviderOptions, Profile, User } from "../types.js"

/** Checks protecting the callback. `none` turns every check off (only with a provider that cannot do PKCE). */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** What the token endpoint returned, with `expires_at` computed from `expires_in`. */
export interface TokenSet {
  access_token?: string
  /** Always lower case. */
  token_type?: "bearer" | "dpop" | Lowercase<string>
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

/** Query parameters of an endpoint. An object value (the OIDC `claims` parameter) is sent as JSON. */
export type EndpointParams = Record<string, string | number | boolean | Record<string, unknown> | undefined>

export interface AuthorizationEndpointConfig {
  /** An absolute URL, or a path (`/oauth/authorize`) under `issuer`. */
  url?: string
  /** Added to the authorization URL's query (`scope`, `prompt`, `response_mode`…). */
  params?: EndpointParams
  /**
   * The query parameter that carries the client id. Default `client_id`; a few services name it
   * otherwise (TikTok `client_key`, WeChat `appid`).
   */
  clientIdParameter?: string
}

export interface TokenEndpointConfig {
  /** An absolute URL, or a path under `issuer`. */
  url?: string
  /** Sent in the body of the token request, next to the code. */
  params?: EndpointParams
  /**
   * Replaces the token request, for servers that do not follow the standard: receives the
   * authorization code and returns the token set. What it returns is still checked like a token
   * response (an ID token's signature, issuer, audience, expiry and nonce included).
   */
  request?: (context: {
    provider: OAuthConfig
    params: { code: string; redirect_uri: string; code_verifier?: string }
    checks: { code_verifier?: string; nonce?: string; state?: string }
    /** Every parameter of the authorization response, for servers that send more than the code (VK ID's `device_id`). */
    callback: URLSearchParams
  }) => Awaitable<{ tokens: TokenSet }>
  /** Adjusts a non-conforming token response before it is processed. Return nothing to keep it. */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

export interface UserinfoEndpointConfig {
  /** An absolute URL, or a path under `issuer`. */
  url?: string
  /** Added to the userinfo URL's query. */
  params?: EndpointParams
  /** Replaces the userinfo request: returns the profile from the tokens. */
  request?: (context: { provider: OAuthConfig; tokens: TokenSet }) => Awaitable<Profile>
}

/** Client settings sent to, or agreed with, the authorization server. */
export interface OAuthClientOptions {
  /**
   * How the client authenticates at the token endpoint. Default `client_secret_basic`; `none` for
   * public clients (PKCE then protects the code); `private_key_jwt` signs an assertion with
   * `privateKey`.
   */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"
  /** The algorithm the provider signs ID tokens with. Default `RS256`. */
  id_token_signed_response_alg?: string
  /** Set when the provider answers userinfo requests with signed JWTs. */
  userinfo_signed_response_alg?: string
  /** For `private_key_jwt`: the client's private key, a `CryptoKey` or a private JWK with `alg`. */
  privateKey?: CryptoKey | JsonWebKey
  /** For `private_key_jwt`: the `kid` of `privateKey` (default: the JWK's `kid`). */
  privateKeyId?: string
  /** Further client metadata understood by oauth4webapi (`default_max_age`, …). */
  [key: string]: unknown
}

interface OAuthCommon<P> extends CommonProviderOptions {
  /** The `fetch` of this provider's requests (see `customFetch`). Default: the global `fetch`. */
  [customFetch]?: typeof fetch
  /** Default `AUTH_<ID>_ID`. */
  clientId?: string
  /** Default `AUTH_<ID>_SECRET`. */
  clientSecret?: string
  /**
   * The issuer identifier; with it, endpoints are discovered (an `oauth` provider whose
   * `authorization`, `token` and `userinfo` are all set is not: its issuer is then only the base
   * of endpoint paths). Default `AUTH_<ID>_ISSUER`.
   */
  issuer?: string
  /** The discovery document URL, when it is not under `issuer`. */
  wellKnown?: string
  /** The provider's JWKS URL, when it is not discovered. */
  jwks_endpoint?: string
  /** Where the login starts. Overrides the discovered endpoint. */
  authorization?: string | AuthorizationEndpointConfig
  /** Overrides the discovered endpoint. */
  token?: string | TokenEndpointConfig
  /** Overrides the discovered endpoint. */
  userinfo?: string | UserinfoEndpointConfig
  /**
   * Maps the provider's profile to the user. Default keeps `id` (`sub`, else `id`), `name`
   * (`name`, `nickname` or `preferred_username`), `email` and `image` (`picture`). The returned
   * `id` becomes the account's `providerAccountId`.
   */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /**
   * Parameters of the authorization response copied into the profile (JSON-decoded when they hold
   * JSON), for services that send profile data with the code: Apple sends `user`, with the name,
   * on the first sign-in only. They come through the browser unsigned: use them for display data,
   * never to identify the user. A claim the profile already has is never replaced.
   */
  profileFromCallback?: readonly string[]
  /**
   * Picks the tokens stored on the account. Default: `access_token`, `id_token`, `refresh_token`,
   * `expires_at`, `scope`, `token_type`, `session_state`.
   */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | null
  /**
   * Link this provider's account to an existing user with the same email, automatically, when the
   * provider vouches for the address (see `isEmailVerified`); an address it does not vouch for is
   * never linked. Default false.
   */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * Whether the provider vouches that the signed-in person owns the profile's email address. It
   * decides whether a new user starts verified, and whether `allowDangerousEmailAccountLinking`
   * links.
   * Default: the profile's `email_verified` claim is `true` (or `"true"`). Return true only for a
   * provider that checks every address it hands out.
   */
  isEmailVerified?(profile: P): boolean
  /** Per-provider override of the configuration's `redirectProxyUrl`. */
  redirectProxyUrl?: string
  client?: OAuthClientOptions
  style?: OAuthProviderButtonStyles
}

/** A plain OAuth 2 provider: the profile comes from the userinfo endpoint. */
export interface OAuth2Config<P = Profile> extends OAuthCommon<P> {
  type: "oauth"
  /** Default `["pkce"]`. */
  checks?: Exclude<OAuthCheck, "nonce">[]
}

/** An OpenID Connect provider: the profile comes from the validated ID token. */
export interface OIDCConfig<P = Profile> extends OAuthCommon<P> {
  type: "oidc"
  /** Default `["pkce"]`; add `"nonce"` to bind the ID token to the browser. */
  checks?: OAuthCheck[]
  /** Read the profile from the ID token (default). False: ask the userinfo endpoint. */
  idToken?: boolean
}

export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>

/**
 * An `oauth`/`oidc` provider whatever the type of its profile, as `Provider` accepts it.
 *
 * A provider typed with its service's own profile (`OAuth2Config<GitHubProfile>`, whose `id` is a
 * number) is not an `OAuth2Config<Profile>`: its `profile` callback takes another argument type.
 * This view leaves `profile` and `isEmailVerified` (which take the profile too) out, so that every
 * such provider is a `Provider`, while a provider written inline in `providers` is still typed by
 * `OAuthConfig`, its callback's argument a `Profile`. Sesame calls `profile` with what the service returned, which is what its type
 * describes.
 */
export type AnyOAuthConfig = Omit<OAuth2Config, "profile" | "isEmailVerified"> | Omit<OIDCConfig, "profile" | "isEmailVerified">
