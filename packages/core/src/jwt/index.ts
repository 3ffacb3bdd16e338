/**
 * JSON Web Tokens for sessions: encrypted (JWE, `dir` + A256CBC-HS512), never only signed, so
 * that the session's contents stay private to the server.
 *
 * - `encode` sets `iat`, `exp` (now + `maxAge`) and a fresh `jti` on every call.
 * - `decode` returns `null` for anything that is not a valid, unexpired token made with one of
 *   the secrets: it never throws on bad input. With several secrets, the token's `kid` names the
 *   key; put the newest secret first to rotate without ending sessions.
 * - `getToken` reads the session token from a request's cookies (joining chunks) or from an
 *   `Authorization: Bearer` header. Without a `secret` it reads the environment as `Auth()` does
 *   (`config/env.ts`: the current secret, then the rotated older ones); without a `cookieName` it
 *   looks for the built-in session cookie (`http/cookies.ts`). Given `absoluteMaxAge`, it also
 *   refuses a token signed in (`auth_time`) longer ago. It sees no configuration, so only given the
 *   `adapter` does it end the sessions of unverified users set aside since (`email_unverified`),
 *   as the session endpoint and `auth()` do.
 *
 * @module
 */
import type { Adapter, AdapterUser } from "../adapters/types.js"
import { defaultMaxAge } from "../config/defaults.js"
import { envSecretEntries, readEnv } from "../config/env.js"
import { backend } from "#crypto"
import { decoder, encoder } from "../crypto/encoding.js"
import type { ContentEncryption } from "../crypto/types.js"
import { MissingSecretError } from "../errors.js"
import { coreCookies, parseCookieHeader, readChunkedCookie } from "../http/cookies.js"
import { absoluteEnd } from "../session/lifetime.js"
import { claimsFromText } from "./claims.js"
import { derivedKey, parseJweHeader } from "./keys.js"

/** Claims Sesame puts in a session token. Extend with module augmentation of `JWT`. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
  /**
   * When the user signed in (seconds since the epoch). Set by Sesame at sign-in and kept on every
   * read whatever the `jwt` callback returns; `session.absoluteMaxAge` counts from it.
   */
  auth_time?: number
  /**
   * Set by Sesame when the session started for a stored user whose email address was unverified:
   * that address (`true` in tokens of earlier versions). Each read then checks the user: the session
   * ends once the user is gone or no longer holds the address (it was set aside when the address's
   * owner proved it). Kept on every read whatever the `jwt` callback returns.
   */
  email_unverified?: boolean | string
}

/** The session token's claims. Augment this interface to type your own claims. */
export interface JWT extends DefaultJWT {}

export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encrypt. */
  token?: Payload
  /** The secret or secrets; the first one encrypts. */
  secret: string | string[]
  /** Binds the token to one use; Sesame uses the cookie name. */
  salt: string
  /** Lifetime in seconds. Default: 30 days, the default `session.maxAge`. */
  maxAge?: number
}

export interface JWTDecodeParams {
  /** The compact JWE. Empty or missing gives `null`. */
  token?: string
  /** The secret or secrets to try, newest first. */
  secret: string | string[]
  /** The salt the token was encoded with. */
  salt: string
}

/** The `jwt` option of the configuration. */
export interface JWTOptions {
  /** Lifetime of a session token in seconds. Default: `session.maxAge`. */
  maxAge: number
  /** Replaces the built-in encoder. */
  encode: (params: JWTEncodeParams) => string | Promise<string>
  /** Replaces the built-in decoder. Must return null for invalid tokens. */
  decode: (params: JWTDecodeParams) => JWT | null | Promise<JWT | null>
}

const encryption: ContentEncryption = "A256CBC-HS512"

function secretsOf(secret: string | string[] | undefined): string[] {
  const list = Array.isArray(secret) ? secret : secret ? [secret] : []
  const isUsable = (s: unknown) => typeof s === "string" && s.length > 0
  // The configuration's list is already clean: no copy of it on every session read.
  if (list.length > 0 && list.every(isUsable)) return list
  const usable = list.filter(isUsable)
  if (usable.length === 0) throw new MissingSecretError("A secret is required to encode and decode session tokens.")
  return usable
}

/** Encrypts `token` as a compact JWE under the first secret. */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const [secret] = secretsOf(params.secret) as [string]
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    ...(params.token as object | undefined),
    iat: now,
    exp: now + (params.maxAge ?? defaultMaxAge),
    jti: crypto.randomUUID(),
  }
  const { key, kid } = await derivedKey(encryption, secret, params.salt)
  return backend.encryptJwe(encoder.encode(JSON.stringify(claims)), key, { alg: "dir", enc: encryption, kid })
}

function validClaims(plaintext: Uint8Array): JWT | null {
  return claimsFromText(decoder.decode(plaintext))
}

/** Decrypts and checks a token. Returns null for anything invalid, expired or foreign. */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const secrets = secretsOf(params.secret)
  const { token, salt } = params
  if (!token || typeof token !== "string") return null
  const header = parseJweHeader(token)
  if (!header) return null
  for (const secret of secrets) {
    const { key, kid } = await derivedKey(header.enc, secret, salt)
    if (header.kid !== undefined && header.kid !== kid) continue
    const plaintext = await backend.decryptJwe(token, key, header)
    if (plaintext) return validClaims(plaintext) as Payload | null
  }
  return null
}

export interface GetTokenParams {
  /** The request (or anything with its headers). */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined>; url?: string }
  /**
   * The secret, or the secrets newest first (a token made with any of them is read). Default: the
   * secrets the environment gives `Auth()`: `SESAME_SECRET` (else `AUTH_SECRET`), then the older
   * `SESAME_SECRET_1`…`_3` (else `AUTH_SECRET_1`…`_3`).
   */
  secret?: string | string[]
  /** Default: the cookie name. */
  salt?: string
  /** Whether the cookie has the `__Secure-` prefix. Default: the request URL is https. */
  secureCookie?: boolean
  /** Default: the built-in session cookie name, `sesame.session-token`, with `__Secure-` when `secureCookie`. */
  cookieName?: string
  /** Return the raw token instead of its claims. Nothing is checked then, `absoluteMaxAge` included. */
  raw?: boolean
  decode?: JWTOptions["decode"]
  /**
   * The app's `session.absoluteMaxAge`, in seconds. When set, a token whose sign-in (`auth_time`)
   * is longer ago, or that carries no `auth_time`, gives null, as the session endpoint would. Default:
   * unset, no absolute lifetime. (`getToken` cannot see the configuration, so pass it here.)
   */
  absoluteMaxAge?: number
  /**
   * The app's adapter, to end JWT sessions of unverified users as the session endpoint does. A token
   * issued to a user whose address nobody had proven carries `email_unverified` (that address); when the
   * address's owner proves it later, that user is set aside under another address, and such a
   * token must stop naming the owner's address (it may be a squatter's). With `adapter`, a marked
   * token whose user is gone or no longer holds that address gives null (one `getUser`
   * call, for marked tokens only). Without it, a
   * marked token is returned as is: check `token.email_unverified` yourself, or read the session
   * through `Auth()` (`auth()` in the integrations), before trusting it with anything.
   */
  adapter?: Pick<Adapter, "getUser">
}

function headerOf(req: GetTokenParams["req"], name: string): string | undefined {
  const headers = req.headers
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const value = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value
}

/**
 * Reads and decodes the session token of a request, from the session cookie (chunks joined) or
 * an `Authorization: Bearer` header. Returns null when there is none or it is invalid.
 *
 * @example
 * ```ts
 * const token = await getToken({ req: request, secret: process.env.AUTH_SECRET })
 * ```
 */
export async function getToken(params: GetTokenParams & { raw: true }): Promise<string | null>
export async function getToken(params: GetTokenParams): Promise<JWT | null>
export async function getToken(params: GetTokenParams): Promise<JWT | string | null> {
  const secret = params.secret ?? envSecretEntries(readEnv()).map((entry) => entry.value)
  if (!secret || (Array.isArray(secret) && secret.length === 0)) {
    throw new MissingSecretError("getToken needs a secret: pass `secret` or set SESAME_SECRET (or AUTH_SECRET).")
  }
  const secure = params.secureCookie ?? (params.req.url?.startsWith("https://") ?? false)
  const cookieName = params.cookieName ?? coreCookies(secure).sessionToken.name
  const cookies = parseCookieHeader(headerOf(params.req, "cookie"))
  let token = readChunkedCookie(cookies, cookieName)
  if (!token) {
    const authorization = headerOf(params.req, "authorization")
    if (authorization?.startsWith("Bearer ")) {
      try {
        token = decodeURIComponent(authorization.slice(7).trim())
      } catch {
        return null
      }
    }
  }
  if (!token) return null
  if (params.raw) return token
  let claims: JWT | null
  try {
    const decodeFn = params.decode ?? decode
    claims = await decodeFn({ token, secret, salt: params.salt ?? cookieName })
  } catch {
    return null
  }
  if (claims && params.absoluteMaxAge !== undefined) {
    const signedInAt = typeof claims.auth_time === "number" ? claims.auth_time * 1000 : undefined
    if (!(Date.now() < absoluteEnd({ absoluteMaxAge: params.absoluteMaxAge }, signedInAt))) return null
  }
  if (claims?.email_unverified !== undefined && claims.email_unverified !== false && params.adapter?.getUser) {
    let user: AdapterUser | null = null
    try {
      user = typeof claims.sub === "string" ? await params.adapter.getUser(claims.sub) : null
    } catch {
      // Fail closed: a token that cannot be checked is not trusted.
    }
    if (!holdsTokenAddress(user, claims)) return null
  }
  return claims
}

/**
 * Whether the user of a token marked `email_unverified` still holds the address the mark names
 * (for a mark of an earlier version, `true`, the token's `email` claim): false once the user is
 * gone, or was set aside under another address because the address's owner proved it.
 */
export function holdsTokenAddress(user: Pick<AdapterUser, "email"> | null, token: JWT): boolean {
  if (!user) return false
  const address = typeof token.email_unverified === "string" ? token.email_unverified : token.email
  return typeof address !== "string" || user.email?.toLowerCase() === address.toLowerCase()
}
