/**
 * What a key looks like, and the checks made on it before any storage read.
 *
 * A key is `<prefix><body><checksum>`: the configured prefix (`sesame_` by default), 43 base62
 * characters drawn from the platform's CSPRNG (43 × log2(62) ≈ 256 bits), and the CRC32 of prefix
 * and body in 6 base62 characters. With the default prefix it matches
 *
 *     /\bsesame_[0-9A-Za-z]{49}\b/
 *
 * The checksum is not a secret and proves nothing about the key's validity: it lets a secret
 * scanner (GitHub's, a pre-commit hook) tell a real key from a lookalike offline, and lets
 * {@link parseKey} drop a mistyped or made-up key without asking the database.
 *
 * Only the key's SHA-256 is stored. A slow password hash (Argon2, bcrypt) is for secrets people
 * choose, whose few bits a stolen hash lets an attacker guess offline; a 256-bit random key cannot
 * be guessed whatever the hash's speed, so one SHA-256 is enough, and it makes verification a
 * lookup by hash (an index) instead of a hash per candidate row.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto"

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Random characters of a key. */
export const bodyLength = 43
/** Characters of the checksum (62^6 > 2^32). */
export const checksumLength = 6
/** The visible start of a key kept for lists: the prefix and this many random characters. */
export const startLength = 4

/** A prefix: lowercase letters and digits, words joined by `_`, ending in `_` (`sesame_`, `acme_live_`), at most 24 characters. */
export const prefixPattern = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_$/

/** The regular expression of the keys of `prefix` (anchored), as a secret scanner is given it. */
export function keyPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}[0-9A-Za-z]{${bodyLength + checksumLength}}$`)
}

/** `bytes` random base62 characters, without modulo bias (bytes of 248 and more are drawn again). */
function randomBase62(length: number): string {
  let out = ""
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62]
    }
  }
  return out
}

const crcTable = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32 (IEEE 802.3, as zlib's) of `text`'s UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** `value` in base62, left-padded with `0` to `width` characters. */
function base62(value: number, width: number): string {
  let out = ""
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = alphabet[rest % 62] + out
  return out.padStart(width, "0")
}

/** The checksum of a key's prefix and body. */
export function checksumOf(prefixAndBody: string): string {
  return base62(crc32(prefixAndBody), checksumLength)
}

/** A new key of `prefix`, and its visible start. */
export function newKey(prefix: string): { key: string; start: string } {
  const body = randomBase62(bodyLength)
  return { key: `${prefix}${body}${checksumOf(prefix + body)}`, start: prefix + body.slice(0, startLength) }
}

/**
 * Whether `value` is a well-formed key of `prefix` with a checksum that matches: what is checked
 * before the store is asked anything. Never throws.
 */
export function parseKey(value: unknown, prefix: string): value is string {
  if (typeof value !== "string" || value.length !== prefix.length + bodyLength + checksumLength || !value.startsWith(prefix)) return false
  if (!/^[0-9A-Za-z]+$/.test(value.slice(prefix.length))) return false
  const cut = value.length - checksumLength
  return checksumOf(value.slice(0, cut)) === value.slice(cut)
}

/** SHA-256 of `key`, hex: what the store keeps and is searched by. */
export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/**
 * Whether `a` and `b` are equal, in a time that does not depend on where they differ (Node's
 * `timingSafeEqual`; unequal lengths, which are public, answer false at once). The stored hash is
 * compared with the presented key's after the lookup by hash: a store whose index compares without
 * case (MariaDB's default collation) or trims must not turn a near match into a match.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}
