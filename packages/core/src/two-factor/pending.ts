/**
 * The pending sign-in: between the two factors there is no session, only this. When the first
 * factor passes for a user with a second factor, the sign-in decision has been made but nothing
 * else: what the session and the `signIn` event will be told is sealed into a cookie that lives
 * 5 minutes (`http/cookies.ts`), readable only by this server (JWE under the app's secret, salted
 * with the cookie's name so that no other sealed value opens as one), and chunked like the session
 * cookie, as an OAuth account's tokens can be large.
 *
 * Each pending sign-in has an id that completes it once: the first completion marks it
 * used in the counter store, so a copy of the cookie taken before completion is refused after it.
 * It allows `triesPerCode` wrong codes, then the first factor must be given again.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import { defaultTwoFactor } from "./defaults.js"
import { randomToken } from "../crypto/encoding.js"
import type { RequestContext } from "../http/context.js"
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js"
import { decode, encode } from "../jwt/index.js"
import type { Account, AuthFactor, Profile, SignInCallbackParams, User } from "../types.js"
import type { ResolvedTwoFactor } from "./settings.js"

/** Seconds a pending sign-in waits for its second factor. */
export const pendingSignInMaxAge = 5 * 60

/** A sign-in waiting for its second factor. */
export interface PendingSignIn {
  /** Its id: it completes once. (Not `jti`, which `encode` replaces with its own.) */
  id: string
  /** The user it is for. */
  userId: string
  /** The user's second factor. */
  method: "totp" | "email"
  /** The first factor. */
  first: AuthFactor
  /** What the session and the `signIn` event are told. */
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  /** When the `signIn` callback has not run yet: what it is asked when the sign-in completes. */
  callback?: SignInCallbackParams
  /** A password sign-in: when the password was set, so that one changed meanwhile stops it. */
  passwordUpdatedAt?: number
  /** Where the user goes once signed in. */
  callbackUrl: string
  /** Email method: what the latest code sent for this sign-in is stored under (a new code voids the older ones). */
  codeBinding?: string
}

function cookie(ctx: RequestContext) {
  return ctx.cookieOptions.pendingSignIn
}

/** Seals a new pending sign-in into its cookie (queued on the context); returns its id. */
export async function savePending(ctx: RequestContext, pending: Omit<PendingSignIn, "id">): Promise<string> {
  const id = randomToken(16)
  await seal(ctx, { ...pending, id }, pendingSignInMaxAge)
  return id
}

/** Seals `pending` again with `changes`, keeping its id and its end. False when it has ended. */
export async function updatePending(ctx: RequestContext, pending: PendingSignIn, changes: Partial<Pick<PendingSignIn, "codeBinding">>): Promise<boolean> {
  const { iat: _iat, exp, jti: _jti, ...kept } = pending as PendingSignIn & { iat?: number; exp?: number; jti?: string }
  const left = (exp ?? 0) - Math.floor(Date.now() / 1000)
  if (left <= 0) return false
  await seal(ctx, { ...kept, ...changes }, left)
  return true
}

async function seal(ctx: RequestContext, pending: PendingSignIn, maxAge: number): Promise<void> {
  const { name, options } = cookie(ctx)
  const value = await encode<PendingSignIn>({ token: pending, secret: [...ctx.config.secrets], salt: name, maxAge })
  ctx.setCookies.push(...writeChunkedCookie(name, value, { ...options, maxAge }, ctx.cookies))
}

/** The request's pending sign-in, or null when it has none, or one that is altered, expired or used. */
export async function readPending(ctx: RequestContext, twoFactor: ResolvedTwoFactor): Promise<PendingSignIn | null> {
  const { name } = cookie(ctx)
  const raw = readChunkedCookie(ctx.cookies, name)
  if (!raw) return null
  const pending = await decode<PendingSignIn>({ token: raw, secret: [...ctx.config.secrets], salt: name })
  if (!pending || typeof pending.id !== "string" || typeof pending.userId !== "string" || (pending.method !== "totp" && pending.method !== "email")) return null
  if (await twoFactor.counters.getCounter(usedKey(pending.id))) return null
  return pending
}

/** Queues the deletion of the pending-sign-in cookie. */
export function clearPending(ctx: RequestContext): void {
  const { name, options } = cookie(ctx)
  ctx.setCookies.push(...clearChunkedCookie(name, options, ctx.cookies))
}

const usedKey = (id: string) => `sesame:two-factor:pending:used:${id}`
const triesKey = (id: string) => `sesame:two-factor:pending:tries:${id}`
const expiry = () => new Date(Date.now() + pendingSignInMaxAge * 1000 + 60_000)

/**
 * Marks `pending` completed. False when it was already (a concurrent request with the same cookie
 * got there first): of two, exactly one completes.
 */
export async function completePending(twoFactor: ResolvedTwoFactor, pending: PendingSignIn): Promise<boolean> {
  const counted = await twoFactor.counters.incrementCounter(usedKey(pending.id), expiry())
  return counted.count === 1
}

/** Counts a wrong code against `pending`; true when it has no tries left (it is then used up). */
export async function wrongCode(twoFactor: ResolvedTwoFactor, pending: PendingSignIn): Promise<boolean> {
  const counted = await twoFactor.counters.incrementCounter(triesKey(pending.id), expiry())
  if (counted.count < defaultTwoFactor.triesPerCode) return false
  await twoFactor.counters.incrementCounter(usedKey(pending.id), expiry())
  return true
}
