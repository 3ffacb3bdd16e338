/**
 * The TOTP secret at rest: encrypted under the app's secret (a JWE, as session tokens, with its
 * own salt so that no other sealed value opens as one), so that a copy of the database alone does
 * not give anyone the codes. Sealed with the newest secret and opened with each in turn; a secret
 * opened with an older one is sealed again with the newest (`rotated`), so that the old secret
 * can be retired once every user has signed in since.
 *
 * @module
 */
import { decodeBase32IgnorePadding, encodeBase32NoPadding } from "@oslojs/encoding"
import { openSealed, seal } from "../jwt/sealed.js"

const salt = "sesame.two-factor-secret"

/** `key` sealed with the newest of `secrets`. */
export function sealTotpKey(secrets: readonly string[], key: Uint8Array): Promise<string> {
  return seal(secrets, salt, { totp: toBase32(key) })
}

/**
 * The key in `sealed`, and whether it was sealed with an older secret than the newest; null when
 * none of `secrets` opens it.
 */
export async function openTotpKey(secrets: readonly string[], sealed: string): Promise<{ key: Uint8Array; rotated: boolean } | null> {
  const opened = await openSealed(secrets, salt, sealed, (contents) => (typeof contents.totp === "string" ? fromBase32(contents.totp) : null))
  return opened && { key: opened.value, rotated: opened.rotated }
}

/** The key as people type it into an app: base32, upper case, without padding. */
export function toBase32(key: Uint8Array): string {
  return encodeBase32NoPadding(key)
}

export function fromBase32(text: string): Uint8Array | null {
  try {
    const key = decodeBase32IgnorePadding(text.toUpperCase())
    return key.length >= 10 ? key : null
  } catch {
    return null
  }
}
