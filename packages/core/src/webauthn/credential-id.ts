/**
 * Credential ids and public keys travel as base64url (in WebAuthn JSON) and are stored as standard
 * base64 (the `AdapterAuthenticator` contract, and what Auth.js stores, so its tables carry over).
 * Both encode the same bytes, so converting is a matter of alphabet and padding.
 *
 * @module
 */
import { base64url, fromBase64url } from "../crypto/encoding.js"

const base64urlPattern = /^[A-Za-z0-9_-]+$/
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/

/** The standard base64 form of a base64url value; null when it is not base64url. */
export function storedCredentialId(wire: string): string | null {
  if (!base64urlPattern.test(wire) || wire.length % 4 === 1) return null
  const base64 = wire.replace(/-/g, "+").replace(/_/g, "/")
  return base64 + "=".repeat((4 - (base64.length % 4)) % 4)
}

/** The base64url form of a standard base64 value. */
export function wireCredentialId(stored: string): string {
  return stored.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** Decodes standard base64 (a stored public key); null when it is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (!base64Pattern.test(text) || text.length % 4 !== 0) return null
  return fromBase64url(wireCredentialId(text))
}

/** Encodes bytes as standard base64. */
export function toBase64(bytes: Uint8Array): string {
  return storedCredentialId(base64url(bytes)) ?? ""
}
