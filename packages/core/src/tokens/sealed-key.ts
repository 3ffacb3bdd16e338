/**
 * A signing key's private half at rest: a JWK encrypted under the app's secret (a JWE, as session
 * tokens, with its own salt so that no other sealed value opens as one). A copy of the database
 * alone signs nothing. Sealed with the newest secret, opened with each in turn, so that rotating
 * the secret keeps the stored keys usable.
 *
 * @module
 */
import type { JWK } from "jose"
import { decode, encode } from "../jwt/index.js"

const salt = "sesame.signing-key"
/** The JWE's `exp`: a key lives until it is retired; a century stands for "no expiry". */
const century = 100 * 365 * 24 * 60 * 60

interface Sealed {
  jwk: JWK
}

/** `jwk` sealed with the newest of `secrets`. */
export function sealPrivateKey(secrets: readonly string[], jwk: JWK): Promise<string> {
  return encode<Sealed>({ token: { jwk }, secret: secrets[0]!, salt, maxAge: century })
}

/** The private JWK in `sealed`; null when none of `secrets` opens it. */
export async function openPrivateKey(secrets: readonly string[], sealed: string): Promise<JWK | null> {
  for (const secret of secrets) {
    const opened = await decode<Sealed>({ token: sealed, secret, salt })
    if (opened?.jwk && typeof opened.jwk === "object") return opened.jwk
  }
  return null
}
