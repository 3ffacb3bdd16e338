/**
 * The cryptographic primitives Sesame needs, behind one interface with two implementations:
 * `backend-node.ts` (synchronous `node:crypto`, the fast path on Node) and `backend-web.ts`
 * (`jose` and WebCrypto, for edge runtimes and browsers). The package's `#crypto` import picks one
 * by export condition, so the request path never imports `node:` modules unconditionally.
 *
 * @module
 */

/** Content encryption algorithms accepted in session JWEs. New tokens use A256CBC-HS512. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

/** The protected header of a session JWE (`alg: "dir"`: the derived key is the content key). */
export interface JweHeader {
  alg: "dir"
  enc: ContentEncryption
  kid?: string
}

export interface CryptoBackend {
  /** HKDF with SHA-256 (RFC 5869). */
  hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array>
  /** SHA-256 of UTF-8 text or bytes. */
  sha256(data: string | Uint8Array): Promise<Uint8Array>
  /** HMAC-SHA-256. */
  hmacSha256(key: Uint8Array, data: string | Uint8Array): Promise<Uint8Array>
  /** Compact JWE with direct key agreement. `key` is 64 bytes for A256CBC-HS512, 32 for A256GCM. */
  encryptJwe(plaintext: Uint8Array, key: Uint8Array, header: JweHeader): Promise<string>
  /**
   * Decrypts a compact JWE whose header the caller has already parsed and checked. Returns null
   * when the token does not authenticate under `key` (wrong key, tampered, truncated).
   */
  decryptJwe(jwe: string, key: Uint8Array, header: JweHeader): Promise<Uint8Array | null>
}
