/**
 * A value kept at rest under the app's secret (a JWE, as session tokens): a TOTP key, a signing
 * key's private half, a plugin's secret. Each kind has its own salt, so that no sealed value opens
 * as another kind, nor as a session token. Sealed with the newest secret and opened with each in
 * turn, so that rotating the secret keeps stored values usable; `rotated` says when one was opened
 * with an older secret and should be sealed again with the newest, so that the old one can retire.
 *
 * @module
 */
import { decode, encode } from "./index.js"

/** The JWE's `exp`: a sealed value lives until it is replaced; a century stands for "no expiry". */
const century = 100 * 365 * 24 * 60 * 60

/** `contents` sealed with the newest of `secrets`, under `salt`. */
export function seal(secrets: readonly string[], salt: string, contents: Record<string, unknown>): Promise<string> {
  return encode({ token: contents, secret: secrets[0]!, salt, maxAge: century })
}

/**
 * What `read` takes from the contents of `sealed` (null when they are not what it wants), with
 * whether an older secret than the newest opened it; null when none of `secrets` opens it.
 */
export async function openSealed<Value>(
  secrets: readonly string[],
  salt: string,
  sealed: string,
  read: (contents: Record<string, unknown>) => Value | null,
): Promise<{ value: Value; rotated: boolean } | null> {
  for (const [index, secret] of secrets.entries()) {
    const opened = await decode<Record<string, unknown>>({ token: sealed, secret, salt })
    const value = opened ? read(opened) : null
    if (value !== null) return { value, rotated: index > 0 }
  }
  return null
}
