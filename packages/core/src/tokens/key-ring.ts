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
 * - Only the keys the app's secrets open, whose public half is the private key's, are the app's: a
 *   row another deployment (its own secret) or an intruder wrote to the table is never published,
 *   never signs and never retires the app's key. Replacing the secret outright (rather than putting
 *   a new one first) thus withdraws every key with it, as it ends every session.
 *
 * Keys given in configuration (`apiTokens.keys`) are used as they are: the first signs, all are
 * published; rotating them is the app's deployment.
 *
 * @module
 */
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose"
import { defaultJwksMaxAge } from "../config/defaults.js"
import { randomToken } from "../crypto/encoding.js"
import { AuthError } from "../errors.js"
import type { Awaitable } from "../types.js"
import type { ApiTokenAlgorithm } from "./options.js"
import { openPrivateKey, sealPrivateKey } from "./sealed-key.js"
import type { AdapterSigningKey } from "./storage.js"

/** A key ready to sign. */
export interface SigningKey {
  readonly kid: string
  readonly alg: ApiTokenAlgorithm
  readonly key: CryptoKey
  /** The same private key as a JWK: for a signer that takes keys as JWKs (a plugin's authorization server). */
  readonly jwk: JWK
}

/** Where tokens get their key, and verifiers the public keys. */
export interface KeyRing {
  /** The key that signs now. */
  signing(): Promise<SigningKey>
  /** The public keys verifiers must know now, as JWKs with `kid`, `alg` and `use`. */
  published(): Promise<JWK[]>
}

/** Where generated keys are kept: the adapter's store, or one in memory (`storage.ts`). */
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

async function importPrivate(jwk: JWK, alg: string): Promise<{ key: CryptoKey; jwk: JWK }> {
  const key = await importJWK(jwk, alg)
  if (!(key instanceof CryptoKey)) throw new AuthError("A signing key is not an asymmetric private key.")
  return { key, jwk }
}

/** The ring of keys given in configuration (checked by {@link configuredKeysProblem}). */
export function configuredKeyRing(keys: readonly JWK[]): KeyRing {
  const [first] = keys as [JWK]
  let signing: Promise<SigningKey> | undefined
  const published = keys.map((jwk) => publicJwk(jwk, jwk.kid!, jwk.alg!))
  return {
    signing() {
      signing ??= importPrivate(first, first.alg!).then(({ key, jwk }) => ({ kid: first.kid!, alg: first.alg as ApiTokenAlgorithm, key, jwk }))
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

/** A stored key this instance made or can use: its secret opens it, and its halves belong together. */
interface OwnKey {
  readonly stored: AdapterSigningKey
  readonly key: CryptoKey
  readonly jwk: JWK
  readonly createdAt: number
}

/** JWK members that say which public key a JWK is (or holds the private half of). */
const publicMembers = ["kty", "crv", "x", "y", "n", "e"] as const

class GeneratedKeyRing implements KeyRing {
  #list: { keys: OwnKey[]; readAt: number } | undefined
  #reading: Promise<OwnKey[]> | undefined
  #rotating: Promise<void> | undefined
  readonly #opened = new Map<string, Promise<{ key: CryptoKey; jwk: JWK } | null>>()

  constructor(
    readonly store: SigningKeyStore,
    readonly options: GeneratedKeyOptions,
  ) {}

  /**
   * This instance's keys, newest first; read again once the list is a minute old, or when `fresh`.
   * A stored row that none of the secrets opens, or whose public key is not the private key's, is
   * not ours: it is never published, never signs, and never counts as a successor (another
   * deployment with its own secret on the same database, or a row someone wrote to the table).
   */
  async #keys(fresh = false): Promise<OwnKey[]> {
    const now = Date.now()
    const list = this.#list
    if (!fresh && list && now >= list.readAt && now - list.readAt < listAge) return list.keys
    this.#reading ??= (async () => {
      try {
        const stored = await this.store.listSigningKeys()
        const opened = await Promise.all(stored.map(async (row) => ({ row, key: await this.#open(row) })))
        const keys = opened
          .filter((entry): entry is { row: AdapterSigningKey; key: { key: CryptoKey; jwk: JWK } } => entry.key !== null)
          .map(({ row, key }) => ({ stored: row, key: key.key, jwk: key.jwk, createdAt: new Date(row.createdAt).getTime() }))
          .sort(newestFirst)
        this.#list = { keys, readAt: Date.now() }
        return keys
      } finally {
        this.#reading = undefined
      }
    })()
    return this.#reading
  }

  /** When `key` stops being needed: its successor signs from `lead` after it was made, and tokens live `maxAge`. */
  #retiredAt(key: OwnKey, keys: readonly OwnKey[]): number {
    const successor = keys.filter((other) => other.createdAt > key.createdAt).sort(newestFirst).at(-1)
    return successor ? successor.createdAt + lead + this.options.maxAge * 1000 + skew : Number.POSITIVE_INFINITY
  }

  #dueForRotation(keys: readonly OwnKey[]): boolean {
    const newest = keys[0]
    return !newest || Date.now() - newest.createdAt >= this.options.rotationAge * 1000 - lead
  }

  /** Makes the next key (once per instance at a time, and not when another instance just did), and deletes retired ones. */
  #rotate(): Promise<void> {
    this.#rotating ??= (async () => {
      try {
        const keys = await this.#keys(true)
        if (!this.#dueForRotation(keys)) return
        const { algorithm, secrets } = this.options
        const pair = await generateKeyPair(algorithm, { extractable: true, ...(algorithm === "RS256" ? { modulusLength: 2048 } : {}) })
        const id = randomToken(16)
        const privateJwk = await exportJWK(pair.privateKey)
        const made: AdapterSigningKey = {
          id,
          algorithm,
          publicKey: JSON.stringify(publicJwk(await exportJWK(pair.publicKey), id, algorithm)),
          privateKey: await sealPrivateKey(secrets, privateJwk),
          createdAt: new Date(),
        }
        await this.store.createSigningKey(made)
        this.#opened.set(id, Promise.resolve({ key: pair.privateKey, jwk: privateJwk }))
        const all = [{ stored: made, key: pair.privateKey, jwk: privateJwk, createdAt: made.createdAt.getTime() }, ...keys]
        for (const key of keys) if (Date.now() >= this.#retiredAt(key, all)) await this.store.deleteSigningKey(key.stored.id)
        await this.#keys(true)
      } finally {
        this.#rotating = undefined
      }
    })()
    return this.#rotating
  }

  /** The private key of `stored`, or null when it is not ours (see {@link GeneratedKeyRing.#keys}). */
  #open(stored: AdapterSigningKey): Promise<{ key: CryptoKey; jwk: JWK } | null> {
    let opened = this.#opened.get(stored.id)
    if (!opened) {
      opened = (async () => {
        if (!algorithms.includes(stored.algorithm as ApiTokenAlgorithm)) return null
        const jwk = await openPrivateKey(this.options.secrets, stored.privateKey)
        if (!jwk || !samePublicKey(jwk, stored.publicKey)) return null
        return importPrivate(jwk, stored.algorithm).catch(() => null)
      })()
      this.#opened.set(stored.id, opened)
    }
    return opened
  }

  async signing(): Promise<SigningKey> {
    let keys = await this.#keys()
    if (this.#dueForRotation(keys)) {
      await this.#rotate()
      keys = await this.#keys()
    }
    const now = Date.now()
    // The newest key published for the lead; else (the first key) the newest there is.
    const signer = keys.find((key) => now - key.createdAt >= lead) ?? keys[0]
    if (!signer) throw new AuthError("No signing key for API tokens could be made.")
    return { kid: signer.stored.id, alg: signer.stored.algorithm as ApiTokenAlgorithm, key: signer.key, jwk: signer.jwk }
  }

  async published(): Promise<JWK[]> {
    let keys = await this.#keys()
    // Another instance (or another copy of this configuration) may have made the first key since.
    if (keys.length === 0) keys = await this.#keys(true)
    const now = Date.now()
    return keys.filter((key) => now < this.#retiredAt(key, keys)).map((key) => publicJwk(JSON.parse(key.stored.publicKey) as JWK, key.stored.id, key.stored.algorithm))
  }
}

/** Whether the stored public key (JSON text) is the public half of the private `jwk`. */
function samePublicKey(jwk: JWK, publicKey: string): boolean {
  let stored: JWK
  try {
    stored = JSON.parse(publicKey) as JWK
  } catch {
    return false
  }
  return publicMembers.every((name) => stored[name] === jwk[name])
}

function newestFirst(a: OwnKey, b: OwnKey): number {
  return b.createdAt - a.createdAt || (a.stored.id < b.stored.id ? -1 : a.stored.id > b.stored.id ? 1 : 0)
}
