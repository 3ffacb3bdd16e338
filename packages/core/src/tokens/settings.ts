/**
 * API tokens as configured (`apiTokens`), resolved once with the rest of the configuration
 * (`config/resolve.ts`). Where the keys come from is decided here: the app's own (`keys`), else
 * generated and stored in the adapter's generic store when it has one (`storage.ts`), else
 * generated in memory (one process only: a warning says so).
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import { memoryStore } from "../store/memory.js"
import { defaultApiTokenAlgorithm, defaultApiTokenMaxAge, defaultSigningKeyRotationAge } from "../config/defaults.js"
import type { ApiTokenAlgorithm, ApiTokenOptions } from "./options.js"
import { algorithms, configuredKeyRing, configuredKeysProblem, generatedKeyRing, type KeyRing, type SigningKeyStore } from "./key-ring.js"
import { storeSigningKeys } from "./storage.js"

/** The shortest `rotationAge`: an hour, well over the lead a new key is published before it signs. */
const minimumRotationAge = 60 * 60

export interface ResolvedApiTokens {
  readonly audience: string | string[]
  /** Undefined: `AUTH_URL`'s origin plus the base path, never a request's host (see `http/issuer.ts`). */
  readonly issuer: string | undefined
  /** Seconds. */
  readonly maxAge: number
  readonly claims: ApiTokenOptions["claims"]
  readonly keys: KeyRing
  /** Where the keys are kept, for the warning about keys in memory. */
  readonly keySource: "configured" | "adapter" | "memory"
}

function positiveSeconds(name: string, value: unknown): number {
  if (!(Number.isSafeInteger(value) && (value as number) > 0)) throw new TypeError(`\`apiTokens.${name}\` must be a whole number of seconds above 0; got ${String(value)}.`)
  return value as number
}

/**
 * `options` resolved, with the adapter's store for generated keys when it has one. Throws a
 * `TypeError` naming what is wrong.
 */
export function resolveApiTokens(options: ApiTokenOptions, adapter: CheckedAdapter | undefined, secrets: readonly string[]): ResolvedApiTokens {
  if (!options || typeof options !== "object") throw new TypeError("`apiTokens` must be an object with at least `audience`.")
  const { audience } = options
  const audiences = Array.isArray(audience) ? audience : [audience]
  if (audiences.length === 0 || audiences.some((value) => typeof value !== "string" || value.length === 0)) {
    throw new TypeError("`apiTokens.audience` must name the service the tokens are for: a non-empty string, or an array of them.")
  }
  if (options.issuer !== undefined && (typeof options.issuer !== "string" || options.issuer.length === 0)) {
    throw new TypeError("`apiTokens.issuer` must be a non-empty string (usually the app's URL).")
  }
  if (options.claims !== undefined && typeof options.claims !== "function") throw new TypeError("`apiTokens.claims` must be a function.")
  const maxAge = positiveSeconds("maxAge", options.maxAge ?? defaultApiTokenMaxAge)
  const rotationAge = positiveSeconds("rotationAge", options.rotationAge ?? defaultSigningKeyRotationAge)
  // A key must sign for a while before the next is due, or every token request would make a key.
  if (rotationAge < minimumRotationAge || rotationAge <= maxAge) {
    throw new TypeError(`\`apiTokens.rotationAge\` must be at least an hour and longer than \`apiTokens.maxAge\`; got ${rotationAge}.`)
  }
  const algorithm: ApiTokenAlgorithm = options.algorithm ?? defaultApiTokenAlgorithm
  if (!algorithms.includes(algorithm)) throw new TypeError(`\`apiTokens.algorithm\` must be "EdDSA", "ES256" or "RS256"; got ${String(algorithm)}.`)
  const base = { audience, issuer: options.issuer, maxAge, claims: options.claims }
  if (options.keys !== undefined) {
    const problem = configuredKeysProblem(options.keys)
    if (problem) throw new TypeError(problem)
    return { ...base, keys: configuredKeyRing(options.keys), keySource: "configured" }
  }
  const generated = { secrets, algorithm, rotationAge, maxAge }
  if (adapter?.store) return { ...base, keys: generatedKeyRing(storeSigningKeys(adapter.store), generated), keySource: "adapter" }
  return { ...base, keys: generatedKeyRing(memoryKeys(secrets, algorithm), generated), keySource: "memory" }
}

/**
 * Keys kept in memory are kept per process and secret (and algorithm), not per configuration
 * object: an integration resolves copies of the app's configuration (`raw` for its server-side
 * reads), and every copy must sign with, and publish, the same keys.
 */
const memoryStores = new Map<string, SigningKeyStore>()

function memoryKeys(secrets: readonly string[], algorithm: ApiTokenAlgorithm): SigningKeyStore {
  const key = `${algorithm}\n${secrets.join("\n")}`
  let store = memoryStores.get(key)
  // Keys refer to no user: the store is asked about none.
  if (!store) memoryStores.set(key, (store = storeSigningKeys(memoryStore(() => false))))
  return store
}
