/**
 * The Node.js crypto backend: synchronous `node:crypto`, no thread-pool round trips.
 *
 * The JWE here is the compact serialisation of RFC 7516 with `alg: "dir"` and the content
 * encryptions of RFC 7518 §5.2.5 (A256CBC-HS512: AES-256-CBC, then HMAC-SHA-512 over
 * AAD ‖ IV ‖ ciphertext ‖ AAD length, truncated to 32 bytes) and §5.3 (A256GCM). Tests cross-check it
 * against `jose` in both directions. Only this file of the request path imports `node:`; it is
 * reached through the `node` condition of the `#crypto` import.
 *
 * @module
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomFillSync, timingSafeEqual } from "node:crypto"
import type { CryptoBackend, JweHeader } from "./types.js"

const base64urlPart = /^[A-Za-z0-9_-]+$/

/**
 * IVs come from a pool refilled 4 KiB at a time: one call into the CSPRNG per 256 tokens instead
 * of one per token (it costs about 2 µs a call, a tenth of a whole session read).
 */
const pool = Buffer.alloc(4096)
let poolOffset = pool.length

function randomIv(length: number): Buffer {
  if (poolOffset + length > pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const iv = Buffer.from(pool.subarray(poolOffset, poolOffset + length))
  // Never hand out the same bytes twice.
  pool.fill(0, poolOffset, poolOffset + length)
  poolOffset += length
  return iv
}

function bytesOf(data: string | Uint8Array): Buffer | Uint8Array {
  return typeof data === "string" ? Buffer.from(data, "utf8") : data
}

function decodePart(part: string | undefined): Buffer | null {
  return part && base64urlPart.test(part) ? Buffer.from(part, "base64url") : null
}

/** AL of RFC 7518 §5.2.2.1 (the AAD's length in bits, 64-bit big-endian) by AAD length: headers repeat. */
const aadLengths = new Map<number, Buffer>()

function aadLength(bytes: number): Buffer {
  let al = aadLengths.get(bytes)
  if (!al) {
    al = Buffer.alloc(8)
    al.writeBigUInt64BE(BigInt(bytes * 8))
    if (aadLengths.size < 64) aadLengths.set(bytes, al)
  }
  return al
}

function cbcTag(macKey: Uint8Array, aad: Buffer, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  const al = aadLength(aad.length)
  return createHmac("sha512", macKey).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)
}

export function encryptJweSync(plaintext: Uint8Array, key: Uint8Array, header: JweHeader): string {
  const protectedHeader = Buffer.from(JSON.stringify(header)).toString("base64url")
  const aad = Buffer.from(protectedHeader, "ascii")
  if (header.enc === "A256CBC-HS512") {
    if (key.length !== 64) throw new TypeError("A256CBC-HS512 needs a 64-byte key")
    const iv = randomIv(16)
    const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv)
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    const tag = cbcTag(key.subarray(0, 32), aad, iv, ciphertext)
    return `${protectedHeader}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
  }
  if (key.length !== 32) throw new TypeError("A256GCM needs a 32-byte key")
  const iv = randomIv(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  const tag = cipher.getAuthTag()
  return `${protectedHeader}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
}

export function decryptJweSync(jwe: string, key: Uint8Array, header: JweHeader): Uint8Array | null {
  const parts = jwe.split(".")
  if (parts.length !== 5 || parts[1] !== "" || !parts[0] || !base64urlPart.test(parts[0])) return null
  const iv = decodePart(parts[2])
  const ciphertext = decodePart(parts[3])
  const tag = decodePart(parts[4])
  if (!iv || !ciphertext || !tag) return null
  const aad = Buffer.from(parts[0], "ascii")
  try {
    if (header.enc === "A256CBC-HS512") {
      if (key.length !== 64 || iv.length !== 16 || tag.length !== 32) return null
      if (!timingSafeEqual(tag, cbcTag(key.subarray(0, 32), aad, iv, ciphertext))) return null
      const decipher = createDecipheriv("aes-256-cbc", key.subarray(32), iv)
      return Buffer.concat([decipher.update(ciphertext), decipher.final()])
    }
    if (key.length !== 32 || iv.length !== 12 || tag.length !== 16) return null
    const decipher = createDecipheriv("aes-256-gcm", key, iv)
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(ciphertext), decipher.final()])
  } catch {
    // Bad padding or a failed GCM tag: the token is not ours.
    return null
  }
}

export const backend: CryptoBackend = {
  async hkdf(ikm, salt, info, length) {
    return new Uint8Array(hkdfSync("sha256", ikm, salt, info, length))
  },
  async sha256(data) {
    return createHash("sha256").update(bytesOf(data)).digest()
  },
  async hmacSha256(key, data) {
    return createHmac("sha256", key).update(bytesOf(data)).digest()
  },
  async encryptJwe(plaintext, key, header) {
    return encryptJweSync(plaintext, key, header)
  },
  async decryptJwe(jwe, key, header) {
    return decryptJweSync(jwe, key, header)
  },
}
