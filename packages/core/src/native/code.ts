/**
 * The one-time code a native app exchanges for a session: sealed under the app's secret (a JWE
 * with its own salt), so that it carries who signed in, for which redirect URI and PKCE challenge,
 * and when the browser's sign-in happened, without a table of its own; used once, through a
 * verification-token record of its random id (`adapters/one-time-tokens.ts`). It lives two
 * minutes: the app exchanges it as soon as the browser hands it over.
 *
 * @module
 */
import { oneTimeHash } from "../adapters/one-time-tokens.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { randomToken } from "../crypto/encoding.js"
import { decode, encode } from "../jwt/index.js"

const salt = "sesame.native-code"
export const codeIdentifier = "sesame:native-code"
export const codePurpose = "native-code"
/** Seconds. */
export const codeMaxAge = 120

export interface NativeCode {
  /** The code's random id: its single use is recorded under it. (Not `jti`, which `encode` sets itself.) */
  codeId: string
  userId: string
  /** The browser's session the code came from (its token's hash): it must still be live at the exchange. */
  sessionHash: string
  redirectUri: string
  /** The PKCE challenge (S256). */
  challenge: string
  /** When the browser's sign-in happened (ms since the epoch), when known. */
  signedInAt?: number
}

/** A new code for `content`, its single use remembered through `adapter`. */
export async function sealCode(adapter: CheckedAdapter, secrets: readonly string[], content: Omit<NativeCode, "codeId">): Promise<string> {
  const codeId = randomToken(16)
  await adapter.createVerificationToken({
    identifier: codeIdentifier,
    token: await oneTimeHash(codePurpose, codeId, secrets[0]!),
    expires: new Date(Date.now() + codeMaxAge * 1000),
  })
  return encode<NativeCode>({ token: { ...content, codeId }, secret: secrets[0]!, salt, maxAge: codeMaxAge })
}

/** What `code` carries, when one of `secrets` opens it and it has not expired; null otherwise. */
export async function openCode(secrets: readonly string[], code: string): Promise<NativeCode | null> {
  if (code.length > 4096) return null
  for (const secret of secrets) {
    const opened = await decode<NativeCode>({ token: code, secret, salt })
    if (opened && typeof opened.codeId === "string" && typeof opened.userId === "string" && typeof opened.sessionHash === "string" && typeof opened.challenge === "string" && typeof opened.redirectUri === "string") {
      return opened
    }
  }
  return null
}
