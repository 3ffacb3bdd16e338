/**
 * Encryption keys for session JWEs.
 *
 * A key is HKDF-SHA-256(secret, salt = cookie name, info = "Sesame Generated Encryption Key (<salt>)"),
 * 64 bytes for A256CBC-HS512 and 32 for A256GCM, so that a token minted for one cookie cannot be
 * replayed in another. Derivation costs a few microseconds on Node but several thread-pool hops on
 * WebCrypto, and its inputs are fixed by the configuration, so each (secret, salt, enc) key is
 * derived once and kept. The cache is bounded because `decode` can be called with any salt.
 *
 * @module
 */
import { backend } from "#crypto"
import { base64url, decoder, encoder, fromBase64url } from "../crypto/encoding.js"
import type { ContentEncryption, JweHeader } from "../crypto/types.js"

export interface DerivedKey {
  key: Uint8Array
  /** A SHA-256 JWK thumbprint (RFC 7638) of the key: names the key in the JWE header. */
  kid: string
}

const maxEntries = 128
const cache = new Map<string, Promise<DerivedKey>>()

async function derive(enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
  const length = enc === "A256CBC-HS512" ? 64 : 32
  const key = await backend.hkdf(
    encoder.encode(secret),
    encoder.encode(salt),
    encoder.encode(`Sesame Generated Encryption Key (${salt})`),
    length,
  )
  const thumbprint = await backend.sha256(`{"k":"${base64url(key)}","kty":"oct"}`)
  return { key, kid: base64url(thumbprint) }
}

/** The derived key for (enc, secret, salt), computed once. */
export function derivedKey(enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
  const id = `${enc}\u0000${salt}\u0000${secret}`
  let entry = cache.get(id)
  if (entry) return entry
  entry = derive(enc, secret, salt)
  // A failed derivation must not poison the cache.
  entry.catch(() => cache.delete(id))
  if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string)
  cache.set(id, entry)
  return entry
}

/**
 * Parsed headers by their encoded form: every token made under one key has the same header, so a
 * session read parses it once. Bounded, since anyone can send any header.
 */
const headers = new Map<string, JweHeader | null>()

/** The protected header of a compact JWE we could have made; null for anything else. */
export function parseJweHeader(token: string): JweHeader | null {
  const dot = token.indexOf(".")
  if (dot <= 0 || dot > 1024) return null
  const encoded = token.slice(0, dot)
  let header = headers.get(encoded)
  if (header === undefined) {
    header = parseHeader(encoded)
    if (headers.size >= maxEntries) headers.delete(headers.keys().next().value as string)
    headers.set(encoded, header)
  }
  return header
}

function parseHeader(encoded: string): JweHeader | null {
  const bytes = fromBase64url(encoded)
  if (!bytes) return null
  let header: unknown
  try {
    header = JSON.parse(decoder.decode(bytes))
  } catch {
    return null
  }
  if (!header || typeof header !== "object") return null
  const { alg, enc, kid, zip, crit } = header as Record<string, unknown>
  if (alg !== "dir" || (enc !== "A256CBC-HS512" && enc !== "A256GCM")) return null
  // Compression and critical extensions are never produced by us; refuse them.
  if (zip !== undefined || crit !== undefined) return null
  if (kid !== undefined && typeof kid !== "string") return null
  return Object.freeze(kid === undefined ? { alg, enc } : { alg, enc, kid })
}

/**
 * Whether `token` names (by its header's `kid`) the key of `secret` and `salt`: with rotated
 * secrets, a token made under an older one is re-issued under the newest on its next read.
 */
export async function madeWithSecret(token: string, secret: string, salt: string): Promise<boolean> {
  const header = parseJweHeader(token)
  return header?.kid !== undefined && header.kid === (await derivedKey(header.enc, secret, salt)).kid
}
