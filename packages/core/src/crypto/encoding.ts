/**
 * Byte and text encodings that work on every runtime (no `Buffer`).
 *
 * @module
 */

export const encoder = new TextEncoder()
export const decoder = new TextDecoder()

const hexTable = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

export function toHex(bytes: Uint8Array): string {
  let out = ""
  for (const byte of bytes) out += hexTable[byte]
  return out
}

export function base64url(bytes: Uint8Array): string {
  let binary = ""
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** Decodes base64url without padding. Returns null for input that is not base64url. */
export function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** `n` bytes from the platform CSPRNG. */
export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n))
}

/** A random string with `bytes * 8` bits of entropy, hex encoded. */
export function randomHex(bytes = 32): string {
  return toHex(randomBytes(bytes))
}

/** A random string with `bytes * 8` bits of entropy, base64url encoded (cookie and URL safe). */
export function randomToken(bytes = 32): string {
  return base64url(randomBytes(bytes))
}
