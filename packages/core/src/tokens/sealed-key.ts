/**
 * A signing key's private half at rest: a JWK encrypted under the app's secret (a JWE, as session
 * tokens, with its own salt so that no other sealed value opens as one). A copy of the database
 * alone signs nothing. Sealed with the newest secret, opened with each in turn, so that rotating
 * the secret keeps the stored keys usable.
 *
 * @module
 */
import type { JWK } from "jose"
import { openSealed, seal } from "../jwt/sealed.js"

const salt = "sesame.signing-key"

/** `jwk` sealed with the newest of `secrets`. */
export function sealPrivateKey(secrets: readonly string[], jwk: JWK): Promise<string> {
  return seal(secrets, salt, { jwk })
}

/** The private JWK in `sealed`; null when none of `secrets` opens it. */
export async function openPrivateKey(secrets: readonly string[], sealed: string): Promise<JWK | null> {
  const opened = await openSealed(secrets, salt, sealed, (contents) => (contents.jwk && typeof contents.jwk === "object" ? (contents.jwk as JWK) : null))
  return opened?.value ?? null
}
