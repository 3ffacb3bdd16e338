/**
 * `@sesame/api-keys`: long-lived API keys as a Sesame plugin. A user (or, with the organizations
 * module, an organization) makes keys with a name, scopes of the app's list, an expiry and an
 * optional rate limit; rotates one with an overlap during which the old key still works; revokes
 * one at once. The app's API routes check a request's key with {@link verifyApiKey}. Keys are
 * shown once; only their SHA-256 is stored. Each change is a security event (`api-key.…`).
 *
 * ```ts
 * import { apiKeys, verifyApiKey } from "@sesame/api-keys"
 * const config = { adapter, providers, plugins: [apiKeys({ scopes: ["read", "write"] })] }
 * // in an API route:
 * const key = await verifyApiKey(request, config)
 * ```
 *
 * @module
 */
import { callModuleApi, type AuthConfig, type LazyAuthConfig, type ModuleRequest, type SesameModule } from "@sesame/core"
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey, storeOf, type ApiKeyInfo, type CreateApiKeyInput, type CreatedApiKey, type Deps } from "./keys.js"
import { apiKeyMessages } from "./messages.js"
import { apiKeyModel, apiKeyUseModel, organizationApiKeyModel } from "./models.js"
import { resolveOptions, type ApiKeysOptions } from "./options.js"
import { aboutUser, accountSection, apiKeyRoutes, organizationSection } from "./routes.js"
import { keySession, verifyKey, type ApiKeyVerification } from "./verify.js"

export { ApiKeyError, apiKeyErrorStatus, type ApiKeyErrorCode } from "./errors.js"
export type { ApiKeyEvent } from "./events.js"
export { constantTimeEqual, keyPattern, parseKey } from "./format.js"
export type { ApiKeyInfo, CreateApiKeyInput, CreatedApiKey } from "./keys.js"
export { apiKeyModel, apiKeyUseModel, organizationApiKeyModel } from "./models.js"
export type { ApiKeysOptions, OrganizationsModule } from "./options.js"
export { hasScopes, keyOfSession, type ApiKeySessionPart, type ApiKeyVerification, type RateLimitedApiKey, type VerifiedApiKey } from "./verify.js"

/** The module's server functions: each manages keys for the request's signed-in user (a cookie session), but `verifyApiKey`. */
export type ApiKeysApi = {
  /** Makes a key: the answer holds the key itself, which nothing will show again. */
  createApiKey(request: ModuleRequest, input: CreateApiKeyInput): Promise<CreatedApiKey>
  /** The user's keys, or `organizationId`'s for a member who may manage them; newest first; never a key or hash. */
  listApiKeys(request: ModuleRequest, query?: { organizationId?: string }): Promise<ApiKeyInfo[]>
  /** Stops the key at once (and the key it replaced, if still in its overlap). */
  revokeApiKey(request: ModuleRequest, keyId: string): Promise<true>
  /** A new key for the same use; the old one stops at `previousStopsAt`. */
  rotateApiKey(request: ModuleRequest, keyId: string): Promise<CreatedApiKey & { previousStopsAt: Date }>
  /** The key the request carries (`Authorization: Bearer`, or the configured header), checked: see {@link verifyApiKey}. */
  verifyApiKey(request: ModuleRequest): Promise<ApiKeyVerification | null>
}

/** The plugin, typed so that `ServerFunctionsOf<ApiKeys>` types an integration's `api`. */
export type ApiKeys = Omit<SesameModule, "api"> & { api: ApiKeysApi }

/**
 * The API keys module: add it to `plugins` (after the organizations module, when it is given).
 * Its id, `api-keys`, is where its endpoints live (`<basePath>/api-keys/…`). Throws a `TypeError`
 * when an option is wrong.
 */
export function apiKeys(options: ApiKeysOptions = {}): ApiKeys {
  const resolved = resolveOptions(options)
  const deps: Deps = { options: resolved, model: resolved.organizations ? organizationApiKeyModel : apiKeyModel }
  const api: ApiKeysApi = {
    createApiKey: (request, input) => createApiKey(deps, request, input),
    listApiKeys: (request, query) => listApiKeys(deps, request, query),
    revokeApiKey: (request, keyId) => revokeApiKey(deps, request, keyId),
    rotateApiKey: (request, keyId) => rotateApiKey(deps, request, keyId),
    verifyApiKey: (request) => verifyKey(deps, request, storeOf(request)),
  }
  return {
    id: "api-keys",
    models: resolved.counters ? [deps.model] : [deps.model, apiKeyUseModel],
    routes: apiKeyRoutes(deps),
    accountSection: accountSection(deps),
    ...(resolved.organizations ? { sections: { "organization.manage": organizationSection(deps) } } : {}),
    aboutUser: aboutUser(deps),
    ...(resolved.sessions ? { credentialSession: (request: ModuleRequest) => keySession(deps, request) } : {}),
    messages: apiKeyMessages,
    api,
  }
}

/**
 * Checks the API key `request` carries, for the app's own API routes: null when it carries none,
 * or one that is malformed, unknown, expired, revoked or past its rotation's overlap; `{ rateLimited:
 * true, retryAfter }` when the key is over its rate limit (answer 429 with `Retry-After`); else who
 * the key is for (`userId` or `organizationId`) and its `scopes`. The configuration must list
 * {@link apiKeys} in `plugins`.
 *
 * @example
 * ```ts
 * const key = await verifyApiKey(request, config)
 * if (!key) return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } })
 * if (key.rateLimited) return new Response("Too Many Requests", { status: 429, headers: { "Retry-After": String(key.retryAfter) } })
 * ```
 */
export async function verifyApiKey(request: Request, config: AuthConfig | LazyAuthConfig): Promise<ApiKeyVerification | null> {
  return (await callModuleApi(request, config, "verifyApiKey")) as ApiKeyVerification | null
}
