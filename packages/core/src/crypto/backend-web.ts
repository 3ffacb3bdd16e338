/**
 * The portable crypto backend: `jose` for JWE and WebCrypto for the rest. Used on edge runtimes
 * and anywhere the `node` export condition does not apply.
 *
 * @module
 */
import { CompactEncrypt, compactDecrypt } from "jose"
import { encoder } from "./encoding.js"
import type { CryptoBackend } from "./types.js"

function bytesOf(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof data === "string" ? encoder.encode(data) : new Uint8Array(data)
}

export const backend: CryptoBackend = {
  async hkdf(ikm, salt, info, length) {
    const key = await crypto.subtle.importKey("raw", bytesOf(ikm), "HKDF", false, ["deriveBits"])
    const bits = await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: bytesOf(salt), info: bytesOf(info) },
      key,
      length * 8,
    )
    return new Uint8Array(bits)
  },
  async sha256(data) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytesOf(data)))
  },
  async hmacSha256(key, data) {
    const cryptoKey = await crypto.subtle.importKey("raw", bytesOf(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, bytesOf(data)))
  },
  async encryptJwe(plaintext, key, header) {
    return new CompactEncrypt(plaintext).setProtectedHeader({ ...header }).encrypt(key)
  },
  async decryptJwe(jwe, key, header) {
    try {
      const { plaintext } = await compactDecrypt(jwe, key, {
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: [header.enc],
      })
      return plaintext
    } catch {
      return null
    }
  },
}
