/**
 * The module's options, checked with their defaults when the configuration is written.
 *
 * @module
 */
import { isHttpsOrLoopback } from "./uris.js"

/** The grants a client may use. */
export type GrantType = "authorization_code" | "refresh_token" | "client_credentials" | "urn:ietf:params:oauth:grant-type:device_code"

/** A client registered in the configuration: another app, a command-line tool, an agent. */
export interface OAuthClient {
  /** Its `client_id`. */
  clientId: string
  /**
   * Its secret: a confidential client (a server-side app) authenticates with it at the token
   * endpoint. Without one, the client is public (a browser app, a CLI, a native app): it proves
   * itself with PKCE alone, which every client must use anyway.
   */
  clientSecret?: string
  /** What the consent page calls it. */
  name: string
  /** Where codes may be sent, compared exactly: no prefix, no pattern, no other port. */
  redirectUris?: readonly string[]
  /** Where RP-initiated logout may send the browser afterwards, compared exactly. */
  postLogoutRedirectUris?: readonly string[]
  /** Default: the authorization code and refresh tokens. */
  grantTypes?: readonly GrantType[]
  /** The scopes it may ask for. Default: every scope the server knows. */
  scopes?: readonly string[]
  /**
   * The app's own client (a second product of the same company): its users are not asked to
   * consent. Default false.
   */
  firstParty?: boolean
  /** `native` for an app on the user's device (custom-scheme or loopback redirect URIs). Default `web`. */
  applicationType?: "web" | "native"
}

/**
 * What the module needs of the organizations module of the same configuration
 * (`organizations(...)` from @sesame/organizations): its permission check, which says whether the
 * signed-in user may manage an organization's apps (`organization: ["update"]`).
 */
export interface OrganizationsModule {
  api: { hasPermission(request: never, organizationId: string, permissions: { organization: ["update"] }): Promise<boolean> }
}

/** An API that access tokens may be made for (RFC 8707): an MCP server, the app's own API. */
export interface OAuthResource {
  /** Its scopes: what a client may ask for at it. */
  scopes: readonly string[]
  /** Seconds an access token for it lasts. Default: `accessTokenTtl`. */
  accessTokenTtl?: number
}

/**
 * The server's options. Its issuer is not one of them: it is `AUTH_URL` and the base path, then
 * `/oauth` (`https://app.example/api/auth/oauth`), the one URL no request can change. Without
 * `AUTH_URL`, the server answers only on a loopback host (development).
 */
export interface OAuthProviderOptions {
  /** The clients known from the configuration. */
  clients?: readonly OAuthClient[]
  /**
   * The APIs access tokens are made for, by their URL (the `resource` parameter, RFC 8707). A
   * token for one is a JWT signed by the server, whose `aud` is that URL, so the API verifies it
   * itself and refuses a token made for another.
   */
  resources?: Readonly<Record<string, OAuthResource>>
  /** Seconds an access token lasts. Default 3600. */
  accessTokenTtl?: number
  /** Seconds a refresh token lasts. Default 30 days. Each use gives a new one; the used one is spent. */
  refreshTokenTtl?: number
  /** The device authorization grant (RFC 8628), for TVs and command-line tools. Default true. */
  deviceFlow?: boolean
  /**
   * Dynamic client registration (RFC 7591) at `<issuer>/reg`, which MCP clients use: off by
   * default. `allow` decides each registration from the metadata the client sent (its redirect
   * URIs, its name); a client registered so is never first-party, and always asks for consent.
   */
  dynamicRegistration?: false | { allow(metadata: Readonly<Record<string, unknown>>): boolean | Promise<boolean> }
  /**
   * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): a client whose
   * `client_id` is the https URL of its metadata, fetched by the server. Off by default; `allow`
   * decides which URLs may be fetched (the server makes a request to each one it allows).
   */
  clientIdMetadataDocuments?: false | { allow(clientId: string): boolean | Promise<boolean> }
  /**
   * The organizations module of the same configuration: with it, an organization's admins (those
   * who may update it) register apps that belong to the organization, beside the apps each user
   * registers for themselves (`createOAuthClient`, the page `<basePath>/oauth/clients`).
   */
  organizations?: OrganizationsModule
}

export interface ResolvedOptions {
  clients: readonly OAuthClient[]
  resources: Readonly<Record<string, OAuthResource>>
  accessTokenTtl: number
  refreshTokenTtl: number
  deviceFlow: boolean
  dynamicRegistration: false | { allow(metadata: Readonly<Record<string, unknown>>): boolean | Promise<boolean> }
  clientIdMetadataDocuments: false | { allow(clientId: string): boolean | Promise<boolean> }
  organizations: OrganizationsModule | null
}

const grantTypes: readonly GrantType[] = ["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"]

function fail(message: string): never {
  throw new TypeError(`oauthProvider: ${message}`)
}

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) fail(`\`${name}\` must be a whole number of seconds above 0.`)
  return value
}

function httpUrl(value: string, what: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    fail(`${what} must be a URL; got ${JSON.stringify(value)}.`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(`${what} must be an http(s) URL; got ${JSON.stringify(value)}.`)
  if (url.hash || url.search) fail(`${what} takes no query or fragment; got ${JSON.stringify(value)}.`)
  return url
}

export function resolveOptions(options: OAuthProviderOptions = {}): ResolvedOptions {
  if (typeof options !== "object" || options === null) fail("the options must be an object.")
  const ids = new Set<string>()
  const clients = (options.clients ?? []).map((client, i) => {
    const at = `clients[${i}]`
    if (typeof client?.clientId !== "string" || !/^[\x21-\x7e]{1,128}$/.test(client.clientId)) fail(`${at}.clientId must be 1 to 128 printable characters without spaces.`)
    if (ids.has(client.clientId)) fail(`the client "${client.clientId}" is listed twice.`)
    ids.add(client.clientId)
    if (typeof client.name !== "string" || client.name.trim() === "") fail(`${at}.name must be a name to show on the consent page.`)
    if (client.clientSecret !== undefined && (typeof client.clientSecret !== "string" || client.clientSecret.length < 32)) fail(`${at}.clientSecret must be at least 32 characters (a random secret).`)
    for (const grant of client.grantTypes ?? []) if (!grantTypes.includes(grant)) fail(`${at}.grantTypes: unknown grant ${JSON.stringify(grant)}.`)
    if (client.grantTypes?.includes("client_credentials") && client.clientSecret === undefined) fail(`${at}: the client credentials grant needs a clientSecret.`)
    for (const uri of [...(client.redirectUris ?? []), ...(client.postLogoutRedirectUris ?? [])]) {
      if (typeof uri !== "string") fail(`${at}: redirect URIs must be strings.`)
      try {
        if (new URL(uri).hash) fail(`${at}: a redirect URI takes no fragment; got ${JSON.stringify(uri)}.`)
      } catch (error) {
        if (error instanceof TypeError && error.message.startsWith("oauthProvider")) throw error
        fail(`${at}: ${JSON.stringify(uri)} is not a URL.`)
      }
    }
    for (const uri of client.postLogoutRedirectUris ?? []) if (!isHttpsOrLoopback(uri)) fail(`${at}.postLogoutRedirectUris: ${JSON.stringify(uri)} must be https, or http on a loopback host.`)
    const grants = client.grantTypes ?? ["authorization_code", "refresh_token"]
    if (grants.includes("authorization_code") && (client.redirectUris ?? []).length === 0) fail(`${at}: the authorization code grant needs redirectUris.`)
    return Object.freeze({ ...client, grantTypes: grants })
  })
  const resources: Record<string, OAuthResource> = {}
  for (const [url, resource] of Object.entries(options.resources ?? {})) {
    // Kept as written: a client names the resource by this exact string (RFC 8707).
    httpUrl(url, `the resource ${JSON.stringify(url)}`)
    const key = url
    if (!Array.isArray(resource?.scopes) || resource.scopes.some((s) => typeof s !== "string" || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) fail(`resources[${JSON.stringify(url)}].scopes must be a list of scope names.`)
    resources[key] = Object.freeze({ scopes: [...resource.scopes], ...(resource.accessTokenTtl === undefined ? {} : { accessTokenTtl: positive(resource.accessTokenTtl, "accessTokenTtl", 3600) }) })
  }
  if (options.deviceFlow !== undefined && typeof options.deviceFlow !== "boolean") fail("`deviceFlow` must be true or false.")
  for (const name of ["dynamicRegistration", "clientIdMetadataDocuments"] as const) {
    const value = options[name]
    if (value !== undefined && value !== false && typeof value?.allow !== "function") fail(`\`${name}\` must be false or { allow }: a function that decides each one.`)
  }
  const organizations = options.organizations
  if (organizations !== undefined && typeof organizations?.api?.hasPermission !== "function") {
    fail("`organizations` must be the organizations module of the same configuration (`organizations(...)` from @sesame/organizations).")
  }
  return Object.freeze({
    clients,
    resources: Object.freeze(resources),
    accessTokenTtl: positive(options.accessTokenTtl, "accessTokenTtl", 3600),
    refreshTokenTtl: positive(options.refreshTokenTtl, "refreshTokenTtl", 30 * 24 * 3600),
    deviceFlow: options.deviceFlow ?? true,
    dynamicRegistration: options.dynamicRegistration ?? false,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments ?? false,
    organizations: organizations ?? null,
  })
}

/** The scopes the server knows, which a client may ask for unless it lists its own: the standard ones and every resource's. */
export function knownScopes(options: Pick<ResolvedOptions, "resources">): string[] {
  return [...new Set(["openid", "offline_access", "email", "profile", ...Object.values(options.resources).flatMap((r) => r.scopes)])]
}
