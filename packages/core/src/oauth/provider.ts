/**
 * An `oauth` or `oidc` provider as the request path uses it: validated once, when the
 * configuration is resolved, with every default applied.
 *
 * Defaults and rules:
 * - `checks` default to `["pkce"]`; `state` is added when a redirect proxy is used (the state
 *   carries the origin to send the callback back to); `none` alone turns the checks off. `nonce`
 *   exists only for `oidc`: plain OAuth has no ID token to carry it.
 * - An `oidc` provider needs an `issuer` (or `wellKnown`): its ID tokens are checked against it.
 *   An `oauth` provider without one needs `authorization`, `token` and `userinfo` URLs.
 * - Explicit endpoint URLs win over discovered ones. An endpoint given as a path (`/oauth/token`)
 *   is under `issuer`, so that a per-instance service (Mastodon) works with the issuer from the
 *   environment. An `oauth` provider with all three endpoints is not discovered: services of that
 *   kind rarely publish metadata.
 * - The client authenticates with `client_secret_basic` unless `client.token_endpoint_auth_method`
 *   says otherwise; every method but `none` and `private_key_jwt` needs `clientSecret`.
 * - The scope of an `oidc` provider defaults to `openid profile email`; a plain OAuth provider
 *   gets no scope it did not ask for.
 *
 * @module
 */
import { customFetch } from "../symbols.js"
import { providerEnvName } from "../config/env.js"
import { InvalidEndpoints, InvalidProvider } from "../errors.js"
import type { Account, Awaitable, Profile, User } from "../types.js"
import { isLoopback } from "./http.js"
import type {
  EndpointParams,
  OAuthConfig,
  TokenEndpointConfig,
  TokenSet,
  UserinfoEndpointConfig,
} from "./types.js"

export type Check = "pkce" | "state" | "nonce"

/** How the client authenticates at the token endpoint, with what it needs for that. */
export type ClientAuthentication =
  | { method: "client_secret_basic" | "client_secret_post" | "client_secret_jwt"; secret: string }
  | { method: "private_key_jwt"; key: CryptoKey | JsonWebKey; kid: string | undefined }
  | { method: "none" }

export interface Endpoint {
  url: URL | undefined
  params: Readonly<Record<string, string>>
}

/** A validated `profileFromCallback`. */
const parameterName = /^[A-Za-z0-9_.-]+$/

/**
 * A setting that an `oauth`/`oidc` provider gets from the app, usually from the environment
 * (`AUTH_<ID>_ID`, `_SECRET`, `_ISSUER`). Without one the provider cannot work, but the rest of the
 * configuration can: see `config/providers.ts`.
 */
export type ProviderSetting = "clientId" | "clientSecret" | "issuer"

/** Client authentication methods that send the client secret (or a JWT made with it). */
const secretMethods: ReadonlySet<unknown> = new Set(["client_secret_basic", "client_secret_post", "client_secret_jwt"])

/** Whether an `oauth` provider's endpoints are left to the issuer: none is given, or one is a path under it. */
function endpointsNeedIssuer(config: OAuthConfig): boolean {
  const urls = [config.authorization, config.token, config.userinfo].map((e) => (typeof e === "object" && e ? e.url : e))
  return urls.every((url) => url === undefined) || urls.some((url) => typeof url === "string" && url.startsWith("/") && !url.startsWith("//"))
}

/** The settings `config` (already filled from the environment) lacks, in the order they are asked for. */
export function missingSettings(config: OAuthConfig): ProviderSetting[] {
  const missing: ProviderSetting[] = []
  if (typeof config.clientId !== "string" || !config.clientId) missing.push("clientId")
  if (secretMethods.has(config.client?.token_endpoint_auth_method ?? "client_secret_basic") && !config.clientSecret) missing.push("clientSecret")
  if (config.issuer === undefined && config.wellKnown === undefined && (config.type === "oidc" || endpointsNeedIssuer(config))) {
    missing.push("issuer")
  }
  return missing
}

/** A validated `oauth`/`oidc` provider with its defaults applied. */
export interface OAuthProvider {
  /** The provider as configured (with `clientId`, `clientSecret`, `issuer` from the environment). */
  readonly config: OAuthConfig
  readonly id: string
  readonly type: "oauth" | "oidc"
  readonly name: string
  readonly clientId: string
  readonly clientAuth: ClientAuthentication
  /** The issuer identifier; with it (or `wellKnown`), endpoints are discovered. */
  readonly issuer: string | undefined
  /** The discovery document's URL, when it is not under `issuer`. */
  readonly wellKnown: URL | undefined
  /** Whether the metadata is discovered (from `issuer` or `wellKnown`), or made of the configured endpoints alone. */
  readonly discovery: boolean
  readonly authorization: Endpoint & { clientIdParameter: string }
  readonly token: Endpoint & Pick<TokenEndpointConfig, "request" | "conform">
  readonly userinfo: Endpoint & Pick<UserinfoEndpointConfig, "request">
  readonly jwksUri: URL | undefined
  /** The `fetch` of its requests (`[customFetch]`), when not the global one. */
  readonly fetch: typeof fetch | undefined
  readonly checks: ReadonlySet<Check>
  /** The `redirectProxyUrl` (provider's, else the configuration's), without a trailing slash. */
  readonly redirectProxyUrl: string | undefined
  /** Whether the profile comes from the ID token (`oidc` unless `idToken: false`). */
  readonly profileFromIdToken: boolean
  readonly profile: (profile: Profile, tokens: TokenSet) => Awaitable<User>
  /** Authorization-response parameters copied into the profile. */
  readonly profileFromCallback: readonly string[]
  readonly account: (tokens: TokenSet) => Partial<Account> | undefined | null
  readonly allowDangerousEmailAccountLinking: boolean
  readonly isEmailVerified: (profile: Profile) => boolean
}

function parseUrl(value: unknown, what: string): URL {
  try {
    if (typeof value === "string") return new URL(value)
  } catch {
    // Reported below.
  }
  throw new InvalidEndpoints(`${what} must be an absolute URL; got ${JSON.stringify(value)}.`)
}

/** A URL Sesame calls, or sends the browser to: https, or http on a loopback host. */
function providerUrl(value: unknown, what: string): URL {
  const url = parseUrl(value, what)
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url))) {
    throw new InvalidEndpoints(`${what} must be an https URL (http only for localhost); got ${JSON.stringify(value)}.`)
  }
  return url
}

/** A URL of the app itself: any http(s) URL. */
function appUrl(value: unknown, what: string): URL {
  const url = parseUrl(value, what)
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new InvalidEndpoints(`${what} must be an http(s) URL; got ${JSON.stringify(value)}.`)
  return url
}

function encodeParams(params: EndpointParams | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue
    out[key] = typeof value === "object" ? JSON.stringify(value) : String(value)
  }
  return out
}

/** An endpoint URL: absolute, or a path under the issuer. */
function endpointUrl(id: string, name: string, value: string, issuer: string | undefined): URL {
  const what = `The ${name} URL of provider "${id}"`
  if (!value.startsWith("/")) return providerUrl(value, what)
  if (value.startsWith("//")) throw new InvalidEndpoints(`${what} must be an absolute URL or a path; got ${JSON.stringify(value)}.`)
  if (issuer === undefined) {
    throw new InvalidEndpoints(
      `${what} must be an absolute URL, or a path under the \`issuer\`; got the path ${JSON.stringify(value)} and no issuer (set \`issuer\` or AUTH_${providerEnvName(id)}_ISSUER).`,
    )
  }
  return providerUrl(`${trimSlash(issuer)}${value}`, what)
}

function endpoint(
  id: string,
  name: string,
  value: string | { url?: string; params?: EndpointParams } | undefined,
  issuer: string | undefined,
): Endpoint {
  if (value === undefined) return { url: undefined, params: {} }
  if (typeof value === "string") return { url: endpointUrl(id, name, value, issuer), params: {} }
  if (!value || typeof value !== "object") {
    throw new InvalidEndpoints(`\`${name}\` of provider "${id}" must be a URL or an object with \`url\` and \`params\`.`)
  }
  return {
    url: value.url === undefined ? undefined : endpointUrl(id, name, value.url, issuer),
    params: encodeParams(value.params),
  }
}

function resolveProfileFromCallback(config: OAuthConfig): readonly string[] {
  const names: unknown = config.profileFromCallback ?? []
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || !parameterName.test(n))) {
    throw new InvalidProvider(`\`profileFromCallback\` of provider "${config.id}" must list parameter names.`)
  }
  return Object.freeze([...(names as string[])])
}

function resolveClientIdParameter(config: OAuthConfig): string {
  const name: unknown = typeof config.authorization === "object" && config.authorization ? config.authorization.clientIdParameter : undefined
  if (name === undefined) return "client_id"
  if (typeof name !== "string" || !parameterName.test(name)) {
    throw new InvalidProvider(`\`authorization.clientIdParameter\` of provider "${config.id}" must be a parameter name.`)
  }
  return name
}

function resolveChecks(config: OAuthConfig, proxied: boolean): Set<Check> {
  const listed: unknown = config.checks ?? ["pkce"]
  if (!Array.isArray(listed) || listed.some((c) => c !== "pkce" && c !== "state" && c !== "nonce" && c !== "none")) {
    throw new InvalidProvider(`\`checks\` of provider "${config.id}" must list "pkce", "state", "nonce" or "none".`)
  }
  if (listed.includes("none") && listed.length > 1) {
    throw new InvalidProvider(`\`checks\` of provider "${config.id}" lists "none" with other checks; use one or the other.`)
  }
  if (config.type === "oauth" && listed.includes("nonce")) {
    throw new InvalidProvider(`Provider "${config.id}" is a plain OAuth provider: "nonce" needs an ID token, so it needs type "oidc".`)
  }
  const checks = new Set(listed.filter((c): c is Check => c !== "none"))
  if (proxied) checks.add("state")
  return checks
}

function resolveClientAuth(config: OAuthConfig): ClientAuthentication {
  const method: unknown = config.client?.token_endpoint_auth_method ?? "client_secret_basic"
  const secret = config.clientSecret || undefined
  switch (method) {
    case "client_secret_basic":
    case "client_secret_post":
    case "client_secret_jwt":
      if (!secret) {
        throw new InvalidProvider(
          `Provider "${config.id}" has no client secret. Set \`clientSecret\` (or AUTH_${providerEnvName(config.id)}_SECRET), or \`client: { token_endpoint_auth_method: "none" }\` for a public client.`,
        )
      }
      return { method, secret }
    case "private_key_jwt": {
      const key = config.client?.privateKey
      const jwk = key && typeof key === "object" && "kty" in key ? (key as JsonWebKey) : undefined
      if (!key || (jwk && (typeof jwk.alg !== "string" || typeof jwk.d !== "string"))) {
        throw new InvalidProvider(
          `Provider "${config.id}" uses private_key_jwt, which needs \`client.privateKey\`: a CryptoKey, or a private JWK with \`alg\`.`,
        )
      }
      const kid = config.client?.privateKeyId ?? (jwk as { kid?: unknown } | undefined)?.kid
      return { method, key, kid: typeof kid === "string" ? kid : undefined }
    }
    case "none":
      return { method }
    default:
      throw new InvalidProvider(
        `\`client.token_endpoint_auth_method\` of provider "${config.id}" must be client_secret_basic, client_secret_post, client_secret_jwt, private_key_jwt or none; got ${JSON.stringify(method)}.`,
      )
  }
}

/** The default `isEmailVerified`: the OpenID Connect claim (some providers send it as a string). */
export function defaultEmailVerified(profile: Profile): boolean {
  const claim: unknown = profile.email_verified
  return claim === true || claim === "true"
}

/** The default `profile` callback: the OIDC standard claims, or a plain `id`. */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? profile.id
  return {
    id: id === undefined || id === null ? undefined : String(id),
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: typeof profile.picture === "string" ? profile.picture : null,
  }
}

/** The default `account` callback: the tokens worth storing. */
export function defaultAccount(tokens: TokenSet): Partial<Account> {
  const picked: Partial<Account> = {
    access_token: tokens.access_token,
    id_token: tokens.id_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    scope: tokens.scope,
    token_type: tokens.token_type,
    session_state: tokens.session_state,
  }
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined))
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "")
}

/**
 * Validates `config` (already filled from the environment) and applies the defaults.
 * `redirectProxyUrl` is the configuration-wide one. Throws a configuration error.
 */
export function resolveOAuthProvider(config: OAuthConfig, redirectProxyUrl: string | undefined): OAuthProvider {
  const { id } = config
  if (typeof config.clientId !== "string" || !config.clientId) {
    throw new InvalidProvider(`Provider "${id}" has no client id. Set \`clientId\`, or AUTH_${providerEnvName(id)}_ID in the environment.`)
  }
  // Checked as a URL but kept as written: an issuer identifier is compared as a string, and
  // `new URL` would add a trailing "/".
  if (config.issuer !== undefined) providerUrl(config.issuer, `The issuer of provider "${id}"`)
  const issuer = config.issuer
  const wellKnown = config.wellKnown === undefined ? undefined : providerUrl(config.wellKnown, `The wellKnown URL of provider "${id}"`)
  const authorization = { ...endpoint(id, "authorization", config.authorization, issuer), clientIdParameter: resolveClientIdParameter(config) }
  if (config.type === "oidc" && !("scope" in authorization.params) && !authorization.url?.searchParams.has("scope")) {
    authorization.params = { ...authorization.params, scope: "openid profile email" }
  }
  const tokenConfig = typeof config.token === "object" && config.token ? config.token : undefined
  const userinfoConfig = typeof config.userinfo === "object" && config.userinfo ? config.userinfo : undefined
  const token = { ...endpoint(id, "token", config.token, issuer), request: tokenConfig?.request, conform: tokenConfig?.conform }
  const userinfo = { ...endpoint(id, "userinfo", config.userinfo, issuer), request: userinfoConfig?.request }
  const complete = !!authorization.url && (!!token.url || !!token.request) && (!!userinfo.url || !!userinfo.request)
  const discovered = (!!issuer || !!wellKnown) && (config.type === "oidc" || !complete)

  if (config.type === "oidc" && !discovered) {
    throw new InvalidEndpoints(
      `The OIDC provider "${id}" needs an \`issuer\` (or AUTH_${providerEnvName(id)}_ISSUER, or \`wellKnown\`): its ID tokens are checked against it.`,
    )
  }
  if (!discovered) {
    const missing = [
      !authorization.url && "authorization",
      !token.url && !token.request && "token",
      !userinfo.url && !userinfo.request && "userinfo",
    ].filter(Boolean)
    if (missing.length > 0) {
      throw new InvalidEndpoints(`Provider "${id}" has no \`issuer\` (or \`wellKnown\`), so it needs ${missing.map((m) => `\`${m}\``).join(", ")} endpoints.`)
    }
  }
  const proxy = config.redirectProxyUrl ?? redirectProxyUrl
  const clientAuth = resolveClientAuth(config)
  const checks = resolveChecks(config, proxy !== undefined)
  if (clientAuth.method === "none" && !checks.has("pkce")) {
    throw new InvalidProvider(`Provider "${id}" is a public client (no client authentication), so it must use the "pkce" check.`)
  }
  if (typeof config.profile !== "undefined" && typeof config.profile !== "function") {
    throw new InvalidProvider(`\`profile\` of provider "${id}" must be a function.`)
  }
  if (typeof config.isEmailVerified !== "undefined" && typeof config.isEmailVerified !== "function") {
    throw new InvalidProvider(`\`isEmailVerified\` of provider "${id}" must be a function.`)
  }
  if (typeof config.account !== "undefined" && typeof config.account !== "function") {
    throw new InvalidProvider(`\`account\` of provider "${id}" must be a function.`)
  }
  return Object.freeze({
    config,
    id,
    type: config.type,
    name: config.name,
    clientId: config.clientId,
    clientAuth,
    issuer,
    wellKnown,
    discovery: discovered,
    authorization,
    token,
    userinfo,
    jwksUri: config.jwks_endpoint === undefined ? undefined : providerUrl(config.jwks_endpoint, `The jwks_endpoint of provider "${id}"`),
    fetch: typeof config[customFetch] === "function" ? config[customFetch] : undefined,
    checks,
    redirectProxyUrl: proxy === undefined ? undefined : trimSlash(appUrl(proxy, `The redirectProxyUrl of provider "${id}"`).href),
    profileFromIdToken: config.type === "oidc" && config.idToken !== false,
    profile: config.profile?.bind(config) ?? defaultProfile,
    profileFromCallback: resolveProfileFromCallback(config),
    account: config.account ?? defaultAccount,
    allowDangerousEmailAccountLinking: config.allowDangerousEmailAccountLinking === true,
    isEmailVerified: config.isEmailVerified?.bind(config) ?? defaultEmailVerified,
  })
}
