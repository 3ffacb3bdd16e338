/**
 * The module's options, checked when `apiKeys()` is called, and resolved once into the values the
 * actions read.
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import type { CounterStore } from "@sesame/core/password"
import { prefixPattern } from "./format.js"
import type { ApiKeyEvent } from "./events.js"

/**
 * What the module needs of the organizations module (`organizations(...)` of `@sesame/organizations`,
 * the same instance as in `plugins`): its permission check, read from the stored membership at
 * every call, so a member removed or demoted loses the keys' management at once.
 */
export interface OrganizationsModule {
  id: string
  api: { hasPermission(request: never, organizationId: string, permissions: never): Promise<boolean> }
}

export interface ApiKeysOptions {
  /** Every key starts with it: lowercase words joined and ended by `_`, at most 24 characters. Default `sesame_`. */
  prefix?: string
  /**
   * The scopes a key may be given (`["read", "write"]`): names of 1 to 64 characters of
   * `a-z 0-9 : . _ -`, starting with a letter. A key is created with a subset. Default: none (keys
   * carry no scope).
   */
  scopes?: readonly string[]
  /** Lifetimes in seconds: `default` when a create names none, `max` the longest allowed. Default 90 days and 365 days. */
  expiresIn?: { default?: number; max?: number }
  /** How long, in seconds, a rotated key keeps working beside its successor. Default 86400 (a day); at most 30 days; 0 stops it at once. */
  rotationOverlap?: number
  /**
   * A header that carries the key besides `Authorization: Bearer <key>` (`"x-api-key"`). Default:
   * only `Authorization`.
   */
  header?: string
  /** The most keys one user or organization may have. Default 50. */
  maxKeys?: number
  /** The rate limit a key gets when its create names none: at most `max` uses per `window` seconds. Default: none. */
  rateLimit?: { max: number; window: number }
  /**
   * Where the per-key rate limit counts: a shared `CounterStore` (`@sesame/core/password`). Default:
   * the module's own model in the adapter's store (`apiKeyUse`), shared by every instance of the app.
   */
  counters?: CounterStore
  /** The organizations module: with it, an organization can own keys, managed by its members with `permission`. */
  organizations?: OrganizationsModule
  /** What a member needs to manage the organization's keys. Default `{ organization: ["update"] }` (owners and admins). */
  organizationPermission?: Readonly<Record<string, readonly string[]>>
  /** Told of each key created, revoked or rotated, after it is stored; a throw is logged and the change stands. */
  onChange?: (event: ApiKeyEvent) => unknown
  /**
   * Whether a user's key is a session for the integrations' session getters (`auth()`,
   * `getSession`, `locals.session`) and `GET <basePath>/session`, on a request with no session
   * cookie: `{ user, expires, "api-keys": { keyId, name, scopes } }`, the user as stored, the key's
   * expiry, through the app's `jwt` and `session` callbacks as a browser's session of the user.
   * Only where the session is read: a CSRF-protected endpoint never takes a key. An organization's
   * key, or one over its rate limit, is no session there (check it with `verifyApiKey`). Default
   * false: keys are for `verifyApiKey` only.
   */
  sessions?: boolean
}

export interface ResolvedApiKeysOptions {
  prefix: string
  scopes: ReadonlySet<string>
  expiresIn: { default: number; max: number }
  rotationOverlap: number
  header: string | null
  maxKeys: number
  rateLimit: { max: number; window: number } | null
  counters: CounterStore | null
  organizations: { hasPermission(request: ModuleRequest, organizationId: string): Promise<boolean> } | null
  onChange: ((event: ApiKeyEvent) => unknown) | null
  sessions: boolean
}

const day = 86_400
const scopePattern = /^[a-z][a-z0-9:._-]{0,63}$/

const seconds = (value: unknown, min: number, max: number): value is number => typeof value === "number" && Number.isInteger(value) && value >= min && value <= max

/** A rate limit read from options or input: `max` 1 to 1e6 uses per `window` 1 s to a day; null when it is not one. */
export function rateLimitOf(value: unknown): { max: number; window: number } | null {
  if (typeof value !== "object" || value === null) return null
  const { max, window } = value as { max?: unknown; window?: unknown }
  return seconds(max, 1, 1_000_000) && seconds(window, 1, day) ? { max, window } : null
}

export function resolveOptions(options: ApiKeysOptions = {}): ResolvedApiKeysOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("apiKeys: the options must be an object.")
  const prefix = options.prefix ?? "sesame_"
  if (typeof prefix !== "string" || prefix.length > 24 || !prefixPattern.test(prefix)) {
    throw new TypeError("apiKeys: `prefix` must be lowercase letters and digits, words joined by `_` and ending in `_` (\"sesame_\", \"acme_live_\"), at most 24 characters.")
  }
  const scopes = options.scopes ?? []
  if (!Array.isArray(scopes) || scopes.length > 100 || !scopes.every((s) => typeof s === "string" && scopePattern.test(s))) {
    throw new TypeError("apiKeys: `scopes` must list at most 100 names of a-z, 0-9, `:`, `.`, `_` and `-`, each starting with a letter.")
  }
  const max = options.expiresIn?.max ?? 365 * day
  if (!seconds(max, 60, 10 * 365 * day)) throw new TypeError("apiKeys: `expiresIn.max` must be a whole number of seconds from 60 to ten years.")
  const defaultExpiry = options.expiresIn?.default ?? Math.min(90 * day, max)
  if (!seconds(defaultExpiry, 60, max)) throw new TypeError("apiKeys: `expiresIn.default` must be a whole number of seconds from 60 to `expiresIn.max`.")
  const rotationOverlap = options.rotationOverlap ?? day
  if (!seconds(rotationOverlap, 0, 30 * day)) throw new TypeError("apiKeys: `rotationOverlap` must be a whole number of seconds from 0 to 30 days.")
  const header = options.header ?? null
  if (header !== null && (typeof header !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(header) || header.toLowerCase() === "cookie")) {
    throw new TypeError("apiKeys: `header` must be a header's name (`x-api-key`).")
  }
  const maxKeys = options.maxKeys ?? 50
  if (!seconds(maxKeys, 1, 10_000)) throw new TypeError("apiKeys: `maxKeys` must be a whole number from 1 to 10000.")
  const rateLimit = options.rateLimit === undefined ? null : rateLimitOf(options.rateLimit)
  if (options.rateLimit !== undefined && !rateLimit) throw new TypeError("apiKeys: `rateLimit` must be { max: 1 to 1000000 uses, window: 1 to 86400 seconds }.")
  const counters = options.counters ?? null
  if (counters !== null && (typeof counters.incrementCounter !== "function" || typeof counters.getCounter !== "function")) {
    throw new TypeError("apiKeys: `counters` must be a CounterStore (`incrementCounter`, `getCounter`, `deleteCounter`).")
  }
  const orgs = options.organizations
  if (orgs !== undefined && (typeof orgs !== "object" || orgs === null || typeof orgs.api?.hasPermission !== "function")) {
    throw new TypeError("apiKeys: `organizations` must be the organizations module of the same configuration (`organizations(...)` from @sesame/organizations).")
  }
  const permission = options.organizationPermission ?? { organization: ["update"] }
  if (typeof permission !== "object" || permission === null || Object.values(permission).some((actions) => !Array.isArray(actions) || actions.some((a) => typeof a !== "string"))) {
    throw new TypeError("apiKeys: `organizationPermission` must be grants, such as { organization: [\"update\"] }.")
  }
  if (options.onChange !== undefined && typeof options.onChange !== "function") throw new TypeError("apiKeys: `onChange` must be a function.")
  if (options.sessions !== undefined && typeof options.sessions !== "boolean") throw new TypeError("apiKeys: `sessions` must be true or false.")
  return Object.freeze({
    prefix,
    scopes: new Set(scopes),
    expiresIn: { default: defaultExpiry, max },
    rotationOverlap,
    header: header?.toLowerCase() ?? null,
    maxKeys,
    rateLimit,
    counters,
    organizations: orgs ? { hasPermission: (request: ModuleRequest, organizationId: string) => orgs.api.hasPermission(request as never, organizationId, permission as never) } : null,
    onChange: options.onChange ?? null,
    sessions: options.sessions ?? false,
  })
}
