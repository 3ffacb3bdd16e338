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
import { decode, encode } from "../jwt/index.js"

const salt = "sesame.two-factor-secret"
/** The JWE's `exp`: the secret lives as long as the user keeps it; a century stands for "no expiry". */
const century = 100 * 365 * 24 * 60 * 60

interface Sealed {
  totp: string
}

/** `key` sealed with the newest of `secrets`. */
export function sealTotpKey(secrets: readonly string[], key: Uint8Array): Promise<string> {
  return encode<Sealed>({ token: { totp: toBase32(key) }, secret: secrets[0]!, salt, maxAge: century })
}

/**
 * The key in `sealed`, and whether it was sealed with an older secret than the newest; null when
 * none of `secrets` opens it.
 */
export async function openTotpKey(secrets: readonly string[], sealed: string): Promise<{ key: Uint8Array; rotated: boolean } | null> {
  for (const [index, secret] of secrets.entries()) {
    const opened = await decode<Sealed>({ token: sealed, secret, salt })
    const key = typeof opened?.totp === "string" ? fromBase32(opened.totp) : null
    if (key) return { key, rotated: index > 0 }
  }
  return null
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
