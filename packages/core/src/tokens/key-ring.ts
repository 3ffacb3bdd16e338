/**
 * The keys that sign API tokens, and the public keys published for verifiers.
 *
 * Policy for generated keys (stored through the adapter, or in memory without one):
 * - A key is generated on first use. Its private half is stored sealed under the app's secret
 *   (`sealed-key.ts`); its public half is published at once.
 * - A new key is generated `rotationAge` after the newest one, less the lead below, and signs only
 *   once it has been published for the lead: `Cache-Control` of the key set plus how long an
 *   instance keeps its list. So no verifier, however recently it fetched the key set, meets a `kid`
 *   its copy lacks. The very first key signs at once (there is nothing older to sign with).
 * - A key stays published until the last token it signed has expired (its successor's start of
 *   signing, plus the tokens' lifetime, plus a minute of clock skew), then it is deleted.
 * - Several instances share the keys through the adapter. Two that rotate at once both store a
 *   key; both keys are published, and every instance picks the same one to sign with (the newest
 *   published long enough), so nothing breaks.
 *
 * Keys given in configuration (`apiTokens.keys`) are used as they are: the first signs, all are
 * published; rotating them is the app's deployment.
 *
 * @module
 */
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose"
import type { AdapterSigningKey } from "../adapters/types.js"
import { defaultJwksMaxAge } from "../config/defaults.js"
import { randomToken } from "../crypto/encoding.js"
import { AuthError } from "../errors.js"
import type { ApiTokenAlgorithm, Awaitable } from "../types.js"
import { openPrivateKey, sealPrivateKey } from "./sealed-key.js"

/** A key ready to sign. */
export interface SigningKey {
  readonly kid: string
  readonly alg: ApiTokenAlgorithm
  readonly key: CryptoKey
}

/** Where tokens get their key, and verifiers the public keys. */
export interface KeyRing {
  /** The key that signs now. */
  signing(): Promise<SigningKey>
  /** The public keys verifiers must know now, as JWKs with `kid`, `alg` and `use`. */
  published(): Promise<JWK[]>
}

/** Where generated keys are kept: the adapter's three methods, or an in-memory store. */
export interface SigningKeyStore {
  listSigningKeys(): Awaitable<AdapterSigningKey[]>
  createSigningKey(key: AdapterSigningKey): Awaitable<unknown>
  deleteSigningKey(id: string): Awaitable<void>
}

export const algorithms: readonly ApiTokenAlgorithm[] = ["EdDSA", "ES256", "RS256"]

/** How long an instance keeps the list of stored keys before reading it again: a minute. */
const listAge = 60_000
/** How long a new key is published before it signs (see the module's policy). */
const lead = defaultJwksMaxAge * 1000 + listAge
/** Clock skew allowed to verifiers, kept in how long a retired key stays published. */
const skew = 60_000

/** JWK members that hold private key material. */
const privateMembers = new Set(["d", "p", "q", "dp", "dq", "qi", "oth", "k"])

/** The public half of `jwk`, labelled for the key set. */
export function publicJwk(jwk: JWK, kid: string, alg: string): JWK {
  const kept = Object.entries(jwk).filter(([name]) => !privateMembers.has(name) && name !== "key_ops" && name !== "ext")
  return { ...(Object.fromEntries(kept) as JWK), kid, alg, use: "sig" }
}

/**
 * Why `keys` cannot sign API tokens, or null when they can: each a private JWK with a unique
 * `kid` and an `alg` Sesame signs with.
 */
export function configuredKeysProblem(keys: unknown): string | null {
  if (!Array.isArray(keys) || keys.length === 0) return "`apiTokens.keys` must be a non-empty array of private JWKs."
  const kids = new Set<string>()
  for (const [index, key] of keys.entries()) {
    const jwk = key as Partial<JWK> | null
    if (!jwk || typeof jwk !== "object") return `\`apiTokens.keys[${index}]\` is not a JWK.`
    if (typeof jwk.kid !== "string" || !jwk.kid) return `\`apiTokens.keys[${index}]\` has no \`kid\`.`
    if (kids.has(jwk.kid)) return `\`apiTokens.keys\` has two keys with the \`kid\` "${jwk.kid}".`
    kids.add(jwk.kid)
    if (!algorithms.includes(jwk.alg as ApiTokenAlgorithm)) return `\`apiTokens.keys[${index}]\` must have \`alg\` "EdDSA", "ES256" or "RS256".`
    if (typeof jwk.d !== "string") return `\`apiTokens.keys[${index}]\` is a public key: give the private key (its \`d\`); only its public half is published.`
  }
  return null
}

async function importPrivate(jwk: JWK, alg: string): Promise<CryptoKey> {
  const key = await importJWK(jwk, alg)
  if (!(key instanceof CryptoKey)) throw new AuthError("A signing key is not an asymmetric private key.")
  return key
}

/** The ring of keys given in configuration (checked by {@link configuredKeysProblem}). */
export function configuredKeyRing(keys: readonly JWK[]): KeyRing {
  const [first] = keys as [JWK]
  let signing: Promise<SigningKey> | undefined
  const published = keys.map((jwk) => publicJwk(jwk, jwk.kid!, jwk.alg!))
  return {
    signing() {
      signing ??= importPrivate(first, first.alg!).then((key) => ({ kid: first.kid!, alg: first.alg as ApiTokenAlgorithm, key }))
      return signing
    },
    async published() {
      return published
    },
  }
}

export interface GeneratedKeyOptions {
  /** The app's secrets, newest first: the newest seals new keys, each opens stored ones. */
  secrets: readonly string[]
  algorithm: ApiTokenAlgorithm
  /** Seconds. */
  rotationAge: number
  /** Seconds: the tokens' lifetime. */
  maxAge: number
}

/** The ring of keys generated and kept in `store` (see the module's policy). */
export function generatedKeyRing(store: SigningKeyStore, options: GeneratedKeyOptions): KeyRing {
  return new GeneratedKeyRing(store, options)
}

class GeneratedKeyRing implements KeyRing {
  #list: { keys: AdapterSigningKey[]; readAt: number } | undefined
  #reading: Promise<AdapterSigningKey[]> | undefined
  #rotating: Promise<void> | undefined
  readonly #opened = new Map<string, Promise<CryptoKey | null>>()

  constructor(
    readonly store: SigningKeyStore,
    readonly options: GeneratedKeyOptions,
  ) {}

  /** The stored keys, newest first; read again once the list is a minute old, or when `fresh`. */
  async #keys(fresh = false): Promise<AdapterSigningKey[]> {
    const now = Date.now()
    const list = this.#list
    if (!fresh && list && now >= list.readAt && now - list.readAt < listAge) return list.keys
    this.#reading ??= (async () => {
      try {
        const keys = [...(await this.store.listSigningKeys())].sort(newestFirst)
        this.#list = { keys, readAt: Date.now() }
        return keys
      } finally {
        this.#reading = undefined
      }
    })()
    return this.#reading
  }

  /** When `key` stops being needed: its successor signs from `lead` after it was made, and tokens live `maxAge`. */
  #retiredAt(key: AdapterSigningKey, keys: readonly AdapterSigningKey[]): number {
    const successor = keys.filter((other) => other.createdAt.getTime() > key.createdAt.getTime()).sort(newestFirst).at(-1)
    return successor ? successor.createdAt.getTime() + lead + this.options.maxAge * 1000 + skew : Number.POSITIVE_INFINITY
  }

  #dueForRotation(keys: readonly AdapterSigningKey[]): boolean {
    const newest = keys[0]
    return !newest || Date.now() - newest.createdAt.getTime() >= Math.max(0, this.options.rotationAge * 1000 - lead)
  }

  /** Makes the next key (once per instance at a time, and not when another instance just did), and deletes retired ones. */
  #rotate(force = false): Promise<void> {
    this.#rotating ??= (async () => {
      try {
        const keys = await this.#keys(true)
        if (!force && !this.#dueForRotation(keys)) return
        const { algorithm, secrets } = this.options
        const pair = await generateKeyPair(algorithm, { extractable: true, ...(algorithm === "RS256" ? { modulusLength: 2048 } : {}) })
        const id = randomToken(16)
        const made: AdapterSigningKey = {
          id,
          algorithm,
          publicKey: JSON.stringify(publicJwk(await exportJWK(pair.publicKey), id, algorithm)),
          privateKey: await sealPrivateKey(secrets, await exportJWK(pair.privateKey)),
          createdAt: new Date(),
        }
        await this.store.createSigningKey(made)
        this.#opened.set(id, Promise.resolve(pair.privateKey))
        const all = [made, ...keys]
        for (const key of keys) if (Date.now() >= this.#retiredAt(key, all)) await this.store.deleteSigningKey(key.id)
        await this.#keys(true)
      } finally {
        this.#rotating = undefined
      }
    })()
    return this.#rotating
  }

  /** The private key of `stored`, or null when no secret opens it (the secret was replaced). */
  #open(stored: AdapterSigningKey): Promise<CryptoKey | null> {
    let opened = this.#opened.get(stored.id)
    if (!opened) {
      opened = openPrivateKey(this.options.secrets, stored.privateKey).then((jwk) => (jwk ? importPrivate(jwk, stored.algorithm) : null))
      this.#opened.set(stored.id, opened)
    }
    return opened
  }

  async #usable(keys: readonly AdapterSigningKey[]): Promise<SigningKey | null> {
    const now = Date.now()
    // The newest key published for the lead; else (the first key) the newest there is.
    for (const candidates of [keys.filter((key) => now - key.createdAt.getTime() >= lead), keys]) {
      for (const stored of candidates) {
        if (!algorithms.includes(stored.algorithm as ApiTokenAlgorithm)) continue
        const key = await this.#open(stored)
        if (key) return { kid: stored.id, alg: stored.algorithm as ApiTokenAlgorithm, key }
      }
    }
    return null
  }

  async signing(): Promise<SigningKey> {
    let keys = await this.#keys()
    if (this.#dueForRotation(keys)) {
      await this.#rotate()
      keys = await this.#keys()
    }
    const usable = await this.#usable(keys)
    if (usable) return usable
    // Stored keys that no configured secret opens: the secret was replaced. A new key takes over.
    await this.#rotate(true)
    const made = await this.#usable(await this.#keys())
    if (!made) throw new AuthError("No signing key for API tokens could be made or opened.")
    return made
  }

  async published(): Promise<JWK[]> {
    let keys = await this.#keys()
    // Another instance (or another copy of this configuration) may have made the first key since.
    if (keys.length === 0) keys = await this.#keys(true)
    const now = Date.now()
    const live = keys.filter((key) => now < this.#retiredAt(key, keys))
    return live.flatMap((key) => {
      try {
        const jwk = JSON.parse(key.publicKey) as JWK
        return [publicJwk(jwk, key.id, key.algorithm)]
      } catch {
        return []
      }
    })
  }
}

function newestFirst(a: AdapterSigningKey, b: AdapterSigningKey): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
