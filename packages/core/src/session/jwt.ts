/**
 * JWT sessions.
 *
 * Policy: the session lives in an encrypted token (JWE) in the session cookie, chunked when large.
 * A read re-issues it (encrypted anew, with a new expiry: sliding `maxAge`) only when it must
 * change: the `jwt` callback returned claims other than those that came in, the request is an
 * update (`POST session`), it was made under an older secret of the rotation list, or it is due
 * for extension by the rule both strategies share (`updateAge` since it was issued,
 * `dueForExtension` in `lifetime.ts`; every read when `updateAge` is 0). Any other read is a
 * decryption (or not even that: `recent-tokens.ts`) and no `Set-Cookie`, and its session's
 * `expires` is when the token, or the cookie it was written in, ends. So an active user stays
 * signed in and an idle one is signed out `maxAge` after the last re-issue. A token that does not decrypt, has expired, or whose `jwt`
 * callback returns null ends the session: the cookie is cleared and the answer is `null`, never an
 * error. Sign-out clears the cookie; ending sessions elsewhere needs `session.revocation`.
 *
 * Two claims belong to Sesame, not to the app: whatever the `jwt` callback returns, they keep the
 * values of the token that came in (or, at sign-in, the values Sesame set), so an app cannot lose
 * them by returning a fresh object, and nobody can extend a session by returning others.
 * - `auth_time` (RFC 9068 / OIDC): the sign-in time, in seconds. With `session.absoluteMaxAge`, a
 *   read after `auth_time + absoluteMaxAge` ends the session, and no expiry written (cookie, `exp`)
 *   goes past that instant (see `lifetime.ts`).
 * - `factors`: how the user proved who they are at that sign-in (`["password", "totp"]`).
 * - `email_unverified: "<address>"`: the session started, with an adapter, for a stored user whose email
 *   address was not verified. Such a user may be a squatter on someone else's address; when the
 *   owner proves the address, the sign-in decision sets that user aside under another address
 *   (`account/set-aside.ts`), but cannot reach a JWT, whose `email` claim would go on naming the
 *   owner's address. So every read of a marked token asks the adapter for the user (`getUser`) and
 *   ends the session when the user is gone or no longer holds the token's address
 *   (`holdsTokenAddress`), and such a token is then no signed-in user for account linking either.
 *   A user who merely became verified (Auth.js's users, at their first email link) keeps it.
 *   Unmarked tokens, the common case, cost no database call.
 * - `sid` and `started_at`: the session's id and when it started (ms), the same across re-issues and
 *   step-ups, for `session.revocation` (`revocation.ts`): a read of a session that was ended since
 *   it started ends it, as an expired one, and so does a read of an acting session whose actor's
 *   sessions were ended since it started (`acting.ts`).
 *
 * A read without a session cookie returns at once: no cryptography, no cookie.
 *
 * @module
 */
import { randomToken } from "../crypto/encoding.js"
import { storageUnavailable } from "../adapters/unavailable.js"
import { moduleSessionParts, tokenSessionParts, withModuleClaims } from "../modules/session.js"
import { sessionUserFields } from "../user/fields.js"
import type { AdapterUser } from "../adapters/types.js"
import { defaultCallbacks } from "../config/defaults.js"
import { AccessDenied, JWTSessionError } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import { readChunkedCookie, writeChunkedCookie } from "../http/cookies.js"
import { decode, holdsTokenAddress, type JWT } from "../jwt/index.js"
import { madeWithSecret } from "../jwt/keys.js"
import type { Account, AuthFactor, Session, User } from "../types.js"
import { clearSessionCookie } from "./cookie.js"
import { absoluteEnd, cappedExpiry, dueForExtension } from "./lifetime.js"
import { recentClaims, rememberClaims } from "./recent-tokens.js"
import { sessionRevoked } from "./revocation.js"
import { actingOf, type ActingSession } from "./acting.js"
import type { JsonValue } from "../store/model.js"
import type { SessionStrategy } from "./types.js"

/** The claims Sesame owns in a session token. */
interface OwnClaims {
  auth_time?: number
  /** The address the unverified user held (`true` in tokens of earlier versions: then the `email` claim is compared). */
  email_unverified?: true | string
  factors?: AuthFactor[]
  sid?: string
  started_at?: number
}

function ownClaims(token: JWT): OwnClaims {
  return {
    ...(typeof token.sid === "string" ? { sid: token.sid } : {}),
    ...(typeof token.started_at === "number" ? { started_at: token.started_at } : {}),
    ...(typeof token.auth_time === "number" ? { auth_time: token.auth_time } : {}),
    ...(token.email_unverified === true || typeof token.email_unverified === "string" ? { email_unverified: token.email_unverified } : {}),
    ...(Array.isArray(token.factors) && token.factors.every((f) => typeof f === "string") ? { factors: token.factors as AuthFactor[] } : {}),
  }
}

/** `token` (from the `jwt` callback) with Sesame's claims set to `own`, whatever the callback put there. */
function withOwnClaims(token: JWT, own: OwnClaims): JWT {
  const { auth_time: _authTime, email_unverified: _unverified, factors: _factors, sid: _sid, started_at: _startedAt, ...rest } = token
  return { ...rest, ...own }
}

/** The user a token names, as the modules' `session` is asked with at a re-issue (no adapter call). */
function tokenUser(token: JWT): User {
  return { ...(token.sub !== undefined ? { id: String(token.sub) } : {}), name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null }
}

/** When the token's session ends for good (ms): see `lifetime.ts`. */
function endOf(ctx: RequestContext, own: OwnClaims): number {
  return absoluteEnd(ctx.config.session, own.auth_time === undefined ? undefined : own.auth_time * 1000)
}

/**
 * The acting of the token's session (`acting.ts`, by the modules' claims as the token carries
 * them; undefined for a session of its own user), or `ended` when the session ended: it was ended
 * after it started (`session.revocation`), or it acts and no longer holds, or its actor's
 * sessions were ended after it started (the one kept aside among them). A token made before
 * `started_at` existed counts from its sign-in, or from the beginning of time.
 */
async function checkedActing(ctx: RequestContext, token: JWT, own: OwnClaims): Promise<ActingSession | "ended" | undefined> {
  const acting = await actingOf(ctx.config.modules, tokenSessionParts(ctx.config.modules, token) as Record<string, JsonValue>)
  if (acting === "ended" || !ctx.config.sessionRevocation || typeof token.sub !== "string") return acting
  const startedAt = own.started_at ?? (own.auth_time ?? 0) * 1000
  if (await sessionRevoked(ctx.config, { sub: token.sub, sid: own.sid, startedAt })) return "ended"
  // No `sid`: the session that stays when the actor signs out everywhere else is never this one.
  if (acting && (await sessionRevoked(ctx.config, { sub: acting.actorId, startedAt }))) return "ended"
  return acting
}

/**
 * The request's token while its session stands: it names a user, its absolute end has not come, and
 * it was not ended; with its acting, if it acts. What every read but the session endpoint's goes through.
 */
async function standingToken(ctx: RequestContext): Promise<{ token: JWT & { sub: string }; own: OwnClaims; end: number; acting: ActingSession | undefined } | null> {
  const { token } = await decodeCookie(ctx)
  if (typeof token?.sub !== "string") return null
  const own = ownClaims(token)
  const end = endOf(ctx, own)
  if (!(Date.now() < end)) return null
  const acting = await checkedActing(ctx, token, own)
  if (acting === "ended") return null
  return { token: token as JWT & { sub: string }, own, end, acting }
}

/**
 * The request's session token. `stale`: it decoded under an older secret of the rotation list
 * (the built-in decoder's tokens name their key), so the read re-issues it under the newest.
 */
async function decodeCookie(ctx: RequestContext): Promise<{ present: boolean; token: JWT | null; stale?: boolean }> {
  const { name } = ctx.cookieOptions.sessionToken
  const raw = readChunkedCookie(ctx.cookies, name)
  if (!raw) return { present: false, token: null }
  const { config } = ctx
  const { jwt, secrets } = config
  const builtIn = jwt.decode === decode
  const known = builtIn ? recentClaims(config, name, raw) : undefined
  if (known) return { present: true, ...known }
  try {
    const token = await jwt.decode({ token: raw, secret: secrets as string[], salt: name })
    if (!token || !builtIn) return { present: true, token }
    const stale = secrets.length > 1 && !(await madeWithSecret(raw, secrets[0]!, name))
    rememberClaims(config, name, raw, token, stale)
    return { present: true, token, stale }
  } catch (error) {
    // A custom decoder that throws is treated like an invalid token.
    config.logger.debug("session token did not decode", { error: error instanceof Error ? error.name : "unknown" })
    return { present: true, token: null }
  }
}

/**
 * Seals `token` into the cookie, expiring at `now + maxAge` but never after `end`. Returns the
 * cookie's expiry, or null when `end` leaves the token no whole second to live. (Also how an
 * Auth.js session is re-issued as Sesame's: `migrate/authjs/jwt-session.ts`.)
 */
export async function writeSessionCookie(ctx: RequestContext, token: JWT, now: number, end: number): Promise<Date | null> {
  const { config } = ctx
  const { name, options } = ctx.cookieOptions.sessionToken
  const expires = cappedExpiry(now, config.session.maxAge, end)
  // `encode` sets exp = floor(now) + maxAge (seconds); keep that at or before `end` as well.
  const maxAge = Math.min(config.jwt.maxAge, Math.floor(end / 1000) - Math.floor(now / 1000))
  if (!(maxAge > 0)) return null
  const encoded = await config.jwt.encode({ token, secret: config.secrets as string[], salt: name, maxAge })
  ctx.setCookies.push(...writeChunkedCookie(name, encoded, { ...options, expires }, ctx.cookies))
  return expires
}

/**
 * For a token marked `email_unverified`: whether its user still exists and still holds the
 * token's address (`"valid"`), or not (`"ended"`); `"unknown"` when the adapter failed.
 */
async function unverifiedUserStands(ctx: RequestContext, token: JWT): Promise<"valid" | "ended" | "unknown"> {
  const { adapter } = ctx.config
  // Marked tokens are only made with an adapter; without one now, nothing can vouch for them.
  if (!adapter || !token.sub) return "ended"
  try {
    const user = await adapter.getUser(token.sub)
    return holdsTokenAddress(user, token) ? "valid" : "ended"
  } catch (error) {
    // A storage outage is the request's answer (a 503), not this session's end.
    const unavailable = storageUnavailable(error)
    if (unavailable) throw unavailable
    ctx.config.logger.error(new JWTSessionError("Looking up the user of an unverified JWT session failed.", { cause: error }))
    return "unknown"
  }
}

/**
 * Whether a session starting now is for a stored user whose address is unverified: an adapter is
 * configured and the sign-in decision handed over its user. A credentials sign-in's user comes from
 * the app's `authorize`, never from the adapter, so it is not marked.
 */
function unverifiedStoredUser(ctx: RequestContext, user: User | AdapterUser, account: Account | null): boolean {
  if (!ctx.config.adapter || account?.type === "credentials") return false
  const stored = user as Partial<AdapterUser>
  // Fail closed: an adapter that leaves `emailVerified` out (null columns dropped) gets the mark too.
  return typeof stored.id === "string" && !stored.emailVerified
}

/**
 * Whether a read must re-issue the token: the `jwt` callback changed its claims (`before`, the
 * incoming claims serialised, against `next`; undefined for the built-in callback), or it is due
 * for extension. A token without a numeric `iat` and `exp` (a custom encoder's) is always
 * re-issued.
 */
function mustReissue(ctx: RequestContext, before: string | undefined, next: JWT, now: number): boolean {
  const { iat, exp } = next
  if (typeof iat !== "number" || typeof exp !== "number") return true
  if (dueForExtension(iat * 1000, issuedUntil(ctx, next), now, ctx.config.session.updateAge)) return true
  return before !== undefined && JSON.stringify(next) !== before
}

/**
 * When a token issued at `iat` stops working (ms): its `exp` (from `jwt.maxAge`), or the end of
 * the cookie it was written in (`session.maxAge` after it was issued), whichever comes first.
 */
function issuedUntil(ctx: RequestContext, token: JWT): number {
  return Math.min((token.iat as number) * 1000 + ctx.config.session.maxAge * 1000, (token.exp as number) * 1000)
}

export const jwtStrategy: SessionStrategy = {
  async read(ctx, update) {
    const { config } = ctx
    const { present, token, stale } = await decodeCookie(ctx)
    if (!present) return null
    if (!token) {
      clearSessionCookie(ctx)
      return null
    }
    const now = Date.now()
    const own = ownClaims(token)
    const end = endOf(ctx, own)
    if (!(now < end) || (await checkedActing(ctx, token, own)) === "ended") {
      clearSessionCookie(ctx)
      return null
    }
    if (own.email_unverified) {
      const stands = await unverifiedUserStands(ctx, token)
      // An adapter outage answers null but keeps the cookie, as database sessions do.
      if (stands === "unknown") return null
      if (stands === "ended") {
        clearSessionCookie(ctx)
        return null
      }
    }
    // Taken before the callback runs, which may change the token in place; the built-in callback
    // changes nothing, so there is nothing to compare.
    const before = config.callbacks.jwt === defaultCallbacks.jwt ? undefined : JSON.stringify(withOwnClaims(token, own))
    // The modules' claims and user as they came in: at a re-issue each module is asked again about
    // that user with its own claim, whatever the callback did to the token.
    const previousParts = tokenSessionParts(config.modules, token)
    const tokenHolder = config.modules.sessions.length > 0 ? tokenUser(token) : undefined
    try {
      const returned = await config.callbacks.jwt(update ? { token, trigger: "update", session: update.data } : { token })
      if (!returned) {
        clearSessionCookie(ctx)
        return null
      }
      let next = withOwnClaims(returned, own)
      const reissue = update !== undefined || stale === true || mustReissue(ctx, before, next, now)
      if (reissue && tokenHolder) next = withModuleClaims(config.modules, next, await moduleSessionParts(config.modules, tokenHolder, "refresh", previousParts))
      const expires = reissue ? cappedExpiry(now, config.session.maxAge, end) : new Date(Math.min(issuedUntil(ctx, next), end))
      const defaults: Session = {
        user: { name: next.name ?? null, email: next.email ?? null, image: next.picture ?? null, ...sessionUserFields(config.userFields, next) },
        expires: expires.toISOString(),
        ...tokenSessionParts(config.modules, next),
      }
      const session = (await config.callbacks.session(
        update
          ? { session: defaults, token: next, trigger: "update", newSession: update.data, ...(own.factors ? { factors: own.factors } : {}) }
          : { session: defaults, token: next, ...(own.factors ? { factors: own.factors } : {}) },
      )) as Session
      // Written last, so that a callback that throws leaves no half-updated cookie behind.
      if (reissue && !(await writeSessionCookie(ctx, next, now, end))) {
        clearSessionCookie(ctx)
        return null
      }
      await emit(config, "session", { session, token: next })
      return session
    } catch (error) {
      // The storage (Sesame's, or the app's in a callback) could not be reached: nothing is known
      // of the session, so the cookie stays and the answer is a 503.
      const unavailable = storageUnavailable(error)
      if (unavailable) throw unavailable
      // A callback failed: fail closed (signed out) and say why in the log.
      config.logger.error(new JWTSessionError("Reading the JWT session failed.", { cause: error }))
      clearSessionCookie(ctx)
      return null
    }
  },

  async start(ctx, { user, account, profile, isNewUser, factors, parts, endsAt, recheck }) {
    const { config } = ctx
    const now = Date.now()
    // The modules' parts: their answers at sign-in, and those the session starts with (acting).
    const moduleParts = { ...(await moduleSessionParts(config.modules, user, "signIn")), ...parts }
    const own: OwnClaims = {
      auth_time: Math.floor(now / 1000),
      sid: randomToken(16),
      started_at: now,
      // The address itself, in a claim the app's callbacks cannot change: the `email` claim is theirs.
      ...(unverifiedStoredUser(ctx, user, account) ? { email_unverified: typeof user.email === "string" ? user.email : true } : {}),
      ...(factors ? { factors } : {}),
    }
    const initial: JWT = {
      name: user.name ?? null,
      email: user.email ?? null,
      picture: user.image ?? null,
      ...(user.id !== undefined ? { sub: String(user.id) } : {}),
      // The app's user fields, each a claim of its own name (as Auth.js apps write `token.role`),
      // and the plugins' parts of the session, each under the plugin's id.
      ...sessionUserFields(config.userFields, user),
      ...moduleParts,
      ...own,
    }
    const token = await config.callbacks.jwt({
      token: initial,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
      ...(factors ? { factors } : {}),
    })
    if (token === null) {
      clearSessionCookie(ctx)
      return
    }
    // What the sign-in rested on may have gone meanwhile (its password changed, the user
    // suspended): asked last, before the cookie, as database sessions ask once stored. A change
    // after this ends the token by its `started_at` (`session.revocation`).
    if (recheck && !(await recheck())) throw new AccessDenied("What this sign-in rested on was removed from the user while signing in.")
    // A module's claim is only ever its own answer, whatever the callback returned: an acting
    // session's mark must not be lost to a callback that builds a fresh object.
    const end = Math.min(endOf(ctx, own), endsAt ?? Number.POSITIVE_INFINITY)
    if (!(await writeSessionCookie(ctx, withOwnClaims(withModuleClaims(config.modules, token, moduleParts), own), now, end))) clearSessionCookie(ctx)
  },

  async end(ctx) {
    const { token } = await decodeCookie(ctx)
    await emit(ctx.config, "signOut", { token })
    clearSessionCookie(ctx)
  },

  async userId(ctx) {
    return (await standingToken(ctx))?.token.sub ?? null
  },

  async currentId(ctx) {
    return (await standingToken(ctx))?.own.sid
  },

  async currentUser(ctx): Promise<User | AdapterUser | null> {
    const standing = await standingToken(ctx)
    if (!standing) return null
    const { token, own } = standing
    const { adapter } = ctx.config
    if (adapter) {
      const user = await adapter.getUser(token.sub)
      // A squatter's session must not link anything to the user once the owner has proven the address.
      if (own.email_unverified && !holdsTokenAddress(user, token)) return null
      return user
    }
    if (own.email_unverified) return null
    return { id: token.sub, name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null }
  },

  async signedInAt(ctx) {
    const standing = await standingToken(ctx)
    // An acting session never signed in: whoever acts is not the user (`acting.ts`).
    if (!standing || standing.acting) return undefined
    const authTime = standing.own.auth_time
    return authTime === undefined ? undefined : authTime * 1000
  },

  async setModulePart(ctx, module, value) {
    const standing = await standingToken(ctx)
    if (!standing) return false
    const { token, own, end } = standing
    const now = Date.now()
    // No callback runs: the claim is the module's, and the app's claims stay as they are.
    const { [module]: _previous, ...rest } = token
    const next = value === undefined ? rest : { ...rest, [module]: value }
    return (await writeSessionCookie(ctx, withOwnClaims(next, own), now, end)) !== null
  },

  async acting(ctx) {
    return (await standingToken(ctx))?.acting
  },

  async refreshSignIn(ctx) {
    const standing = await standingToken(ctx)
    if (!standing) return false
    const { token, own } = standing
    const now = Date.now()
    // The claims as they are, the sign-in time now: no callback runs, nothing the app keeps is lost.
    const renewed: OwnClaims = { ...own, auth_time: Math.floor(now / 1000) }
    return (await writeSessionCookie(ctx, withOwnClaims(token, renewed), now, endOf(ctx, renewed))) !== null
  },
}
