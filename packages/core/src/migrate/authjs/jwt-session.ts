/**
 * Auth.js v5 JWT sessions, read as Auth.js encrypted them and re-issued as Sesame's (`session.ts`
 * says when).
 *
 * Auth.js's token is a JWE, `dir` with `A256CBC-HS512` (`A256GCM` is accepted too, as Auth.js
 * does), under HKDF-SHA-256(ikm = secret, salt = the cookie's name, info = `Auth.js Generated
 * Encryption Key (<salt>)`), 64 bytes (32 for `A256GCM`); its `exp` is checked with the same 15
 * seconds of tolerance. Only the info string differs from Sesame's own key (`jwt/keys.ts`), so the
 * same primitives decrypt it (`#crypto`: WebCrypto and `jose`, or `node:crypto`). Each of the app's
 * secrets is tried: Auth.js picks the one its header's `kid` names, and only that key
 * authenticates the token anyway.
 *
 * The claims carry over as they are (`sub`, `name`, `email`, `picture` and the app's own from its
 * `jwt` callback, which keeps running on every read), except:
 * - `iat`, `exp`, `jti` (and `nbf`): Sesame's token is a new one, valid `maxAge` from now, which is
 *   what Auth.js itself did on every session read (it re-encoded the token with a sliding expiry);
 * - the claims Sesame owns (`auth_time`, `factors`, `email_unverified`, `sid`, `started_at`, `session/jwt.ts`): an
 *   Auth.js token says nothing of when or how its user signed in, so a value an app's callback put
 *   there is not believed: without `auth_time` the session is never fresh for a sensitive action.
 *
 * @module
 */
import { backend } from "#crypto"
import { decoder, encoder } from "../../crypto/encoding.js"
import type { RequestContext } from "../../http/context.js"
import type { JWT } from "../../jwt/index.js"
import { claimsFromText } from "../../jwt/claims.js"
import { parseJweHeader } from "../../jwt/keys.js"
import { writeSessionCookie } from "../../session/jwt.js"
import { absoluteEnd } from "../../session/lifetime.js"
import type { CarryOver } from "./session.js"

/** Claims of an Auth.js token that do not carry over (see the module comment). */
const notCarried: ReadonlySet<string> = new Set(["iat", "exp", "jti", "nbf", "auth_time", "factors", "email_unverified", "sid", "started_at"])

/** The claims of an Auth.js v5 session token sealed under one of `secrets` for the cookie `salt`, unexpired; else null. */
export async function decodeAuthjsToken(token: string, secrets: readonly string[], salt: string): Promise<JWT | null> {
  const header = parseJweHeader(token)
  if (!header) return null
  const length = header.enc === "A256CBC-HS512" ? 64 : 32
  for (const secret of secrets) {
    const key = await backend.hkdf(encoder.encode(secret), encoder.encode(salt), encoder.encode(`Auth.js Generated Encryption Key (${salt})`), length)
    const plaintext = await backend.decryptJwe(token, key, header)
    if (!plaintext) continue
    const claims = claimsFromText(decoder.decode(plaintext))
    // Auth.js always writes `exp`; a token without one is not Auth.js's.
    return claims && typeof claims.exp === "number" ? claims : null
  }
  return null
}

/** Re-issues the Auth.js token `value` (from the cookie `salt`) as Sesame's session cookie. */
export async function carryOverJwtSession(ctx: RequestContext, value: string, salt: string): Promise<CarryOver> {
  const claims = await decodeAuthjsToken(value, ctx.config.secrets, salt)
  if (!claims) return "none"
  const token: JWT = Object.fromEntries(Object.entries(claims).filter(([claim]) => !notCarried.has(claim)))
  const now = Date.now()
  // The start is unknown: without `absoluteMaxAge` (the caller checked) no absolute end applies.
  return (await writeSessionCookie(ctx, token, now, absoluteEnd(ctx.config.session, undefined))) ? "carried" : "none"
}
