/**
 * Database sessions.
 *
 * Policy:
 * - The cookie holds a random token; the adapter stores only its SHA-256 (see `token.ts`).
 * - A read looks the session up with `getSessionAndUser`. An expired session, or one past its
 *   absolute lifetime (`absoluteMaxAge` after its `createdAt`, see `lifetime.ts`), is deleted and
 *   its cookie cleared. A live one is extended to now + `maxAge`, never past its absolute end, at
 *   most once per `updateAge` seconds (every read when `updateAge` is 0; see `dueForExtension`); only
 *   then is the cookie re-sent, with the new expiry.
 * - Sign-in always starts a new session with a new token (and deletes the one the browser had), so
 *   a token fixed before sign-in never becomes a signed-in session.
 * - Sign-out deletes the session and clears the cookie.
 * - An adapter failure while reading answers `null` but keeps the cookie: a database outage must
 *   not sign everyone out for good.
 *
 * @module
 */
import { logAside } from "../adapters/availability.js"
import { moduleSessionParts } from "../modules/session.js"
import { actorSessionPart, dropParts, extendParts, keepPart, keptParts } from "../modules/session-parts.js"
import type { JsonValue } from "../store/model.js"
import { actingOf, type ActingSession } from "./acting.js"
import { sessionUserFields } from "../user/fields.js"
import type { AdapterSession, AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { storageUnavailable } from "../adapters/unavailable.js"
import { AccessDenied, SessionTokenError, SignOutError } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import type { JWT } from "../jwt/index.js"
import type { AuthFactor, Session } from "../types.js"
import { clearSessionCookie } from "./cookie.js"
import { absoluteEnd, cappedExpiry, dueForExtension, storedSessionLive, storedStart } from "./lifetime.js"
import { setStartCookie, startFromCookie } from "./start-cookie.js"
import { hashSessionToken, maxSessionTokenLength } from "./token.js"
import type { SessionStrategy, SignInResult } from "./types.js"

/** The hash of the request's session token, or null when it has none (or an absurd one). */
async function requestTokenHash(ctx: RequestContext): Promise<string | null> {
  const token = ctx.cookies.get(ctx.cookieOptions.sessionToken.name)
  if (!token || token.length > maxSessionTokenLength) return null
  return hashSessionToken(token)
}

/**
 * The request's stored session while it lives (and, if it acts, while that holds), with its user,
 * the hash it is stored under and its acting; null otherwise.
 */
export async function liveStoredSession(
  ctx: RequestContext,
  adapter: CheckedAdapter,
): Promise<{ hash: string; session: AdapterSession; user: AdapterUser; acting: ActingSession | undefined } | null> {
  const hash = await requestTokenHash(ctx)
  if (!hash) return null
  const found = await adapter.getSessionAndUser(hash)
  const now = Date.now()
  if (!found || !storedSessionLive(ctx.config.session, found.session, now)) return null
  // Whether it acts is in its parts: read only where a module starts acting sessions.
  const { modules } = ctx.config
  const acting = modules.actors.length > 0 ? await storedActing(ctx, adapter, await keptParts(modules, modules.context.store!, hash), now) : undefined
  return acting === "ended" ? null : { hash, ...found, acting }
}

/**
 * The acting of the stored session with `parts` (`acting.ts`): undefined for a session of its own
 * user; `ended` when it no longer holds, or the actor's session it was started from, kept aside
 * (`actorSessionPart`), is gone or over: ending the actor's sessions ends the ones they act in.
 */
async function storedActing(ctx: RequestContext, adapter: CheckedAdapter, parts: Record<string, JsonValue>, now: number): Promise<ActingSession | "ended" | undefined> {
  const acting = await actingOf(ctx.config.modules, parts, now)
  if (acting === undefined || acting === "ended") return acting
  const kept = parts[actorSessionPart]
  const actor = typeof kept === "string" ? await adapter.getSessionAndUser(kept) : null
  return actor?.user.id === acting.actorId && storedSessionLive(ctx.config.session, actor.session, now) ? acting : "ended"
}

/** Queues the session cookie carrying `token` until `expires`. */
export function setSessionCookie(ctx: RequestContext, token: string, expires: Date): void {
  const { name, options } = ctx.cookieOptions.sessionToken
  ctx.setCookies.push({ name, value: token, options: { ...options, expires } })
}

/** Whether the adapter stores session metadata (it implements session management). */
function tracksMetadata(adapter: CheckedAdapter): boolean {
  return adapter.has("listSessionsByUserId")
}

/** The session's factors, for an adapter that stores them: Sesame's own, which have a generic store (Auth.js's have neither). */
function factorsOf(adapter: CheckedAdapter, factors: AuthFactor[] | undefined): { factors?: AuthFactor[] } {
  return factors && adapter.store ? { factors } : {}
}

function tokenView(user: AdapterUser): JWT {
  return { sub: user.id, name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null }
}

/** A session just stored: its token (never stored itself: only its hash is) and expiry. */
export interface StoredSession {
  readonly token: string
  readonly hash: string
  readonly expires: Date
}

/** How {@link storeSession} stores a session, beyond the defaults. */
export interface StoreOptions {
  /** How the user proved who they are at the sign-in the session comes from. */
  factors?: AuthFactor[] | undefined
  /**
   * When the sign-in it continues happened (a native app's session carries on the browser's, so its
   * lifetime and freshness are the browser's); null when that is not known (the browser's session
   * has no `createdAt`, an Auth.js session carried over), which the new one keeps: unknown, never
   * now. Now by default.
   */
  startedAt?: number | null | undefined
  /** The session it replaces ended then, and this one does not outlive it (an Auth.js session carried over). */
  notAfter?: Date | undefined
  /** The token, when the caller derives it (`migrate/authjs/`); else `session.generateSessionToken` makes one. */
  token?: string | undefined
}

/** Stores a new session for `userId` (see {@link StoreOptions}). */
export async function storeSession(
  ctx: RequestContext,
  adapter: CheckedAdapter,
  userId: string,
  { factors, startedAt, notAfter, token: given }: StoreOptions = {},
): Promise<StoredSession> {
  const { config } = ctx
  const token = given ?? config.session.generateSessionToken()
  if (typeof token !== "string" || token.length === 0 || token.length > maxSessionTokenLength) {
    throw new SessionTokenError("`session.generateSessionToken` must return a non-empty string of at most 512 characters.")
  }
  const now = Date.now()
  const start = startedAt === undefined ? now : startedAt
  const end = Math.min(absoluteEnd(config.session, start ?? undefined), notAfter?.getTime() ?? Number.POSITIVE_INFINITY)
  const expires = cappedExpiry(now, config.session.maxAge, end)
  const metadata = tracksMetadata(adapter)
    ? { createdAt: start === null ? null : new Date(start), lastUsedAt: new Date(now), userAgent: ctx.headers.get("user-agent")?.slice(0, 512) ?? null }
    : {}
  const hash = await hashSessionToken(token)
  await adapter.createSession({ sessionToken: hash, userId, expires, ...metadata, ...factorsOf(adapter, factors) })
  return { token, hash, expires }
}

/** The database strategy, bound to the adapter that stores the sessions (the configuration checked its methods). */
export function databaseStrategy(adapter: CheckedAdapter): SessionStrategy {
  return {
    async read(ctx, update) {
      const { config } = ctx
      if (!ctx.cookies.has(ctx.cookieOptions.sessionToken.name)) return null
      const hash = await requestTokenHash(ctx)
      if (!hash) {
        clearSessionCookie(ctx)
        return null
      }
      try {
        const found = await adapter.getSessionAndUser(hash)
        if (!found) {
          clearSessionCookie(ctx)
          return null
        }
        const { user } = found
        const now = Date.now()
        const kept = await keptParts(config.modules, config.modules.context.store!, hash)
        const acting = storedSessionLive(config.session, found.session, now) ? await storedActing(ctx, adapter, kept, now) : "ended"
        if (acting === "ended") {
          await adapter.deleteSession(hash)
          await dropPartsOf(ctx, hash)
          clearSessionCookie(ctx)
          return null
        }
        // An acting session is never extended past the instant its module set (`acting.ts`).
        const end = Math.min(absoluteEnd(config.session, storedStart(found.session)), acting?.endsAt ?? Number.POSITIVE_INFINITY)
        // A session stored before `absoluteMaxAge` was set may say it lasts longer; it does not.
        let expires = new Date(Math.min(new Date(found.session.expires).getTime(), end))
        const { maxAge, updateAge } = config.session
        const next = cappedExpiry(now, maxAge, end)
        let extended = false
        // Once the expiry has reached the absolute end there is nothing left to extend.
        const atEnd = expires.getTime() >= end
        // A stored session was last extended `maxAge` before its expiry.
        if (!atEnd && dueForExtension(expires.getTime() - maxAge * 1000, expires.getTime(), now, updateAge)) {
          expires = next
          // The parts first: a failure between the two must not leave a session outliving its
          // parts (an acting session's mark), only parts outliving their session, which expire.
          await extendParts(config.modules, config.modules.context.store!, hash, expires)
          await adapter.updateSession({
            sessionToken: hash,
            expires,
            ...(tracksMetadata(adapter) ? { lastUsedAt: new Date(now) } : {}),
          })
          extended = true
        }
        const defaults: Session = {
          user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null, ...sessionUserFields(config.userFields, user) },
          expires: expires.toISOString(),
          ...(await moduleSessionParts(config.modules, user, "read", kept)),
        }
        const token = tokenView(user)
        const factors = found.session.factors ? { factors: found.session.factors } : {}
        const session = (await config.callbacks.session(
          update
            ? { session: defaults, user, token, trigger: "update", newSession: update.data, ...factors }
            : { session: defaults, user, token, ...factors },
        )) as Session
        if (extended) setSessionCookie(ctx, ctx.cookies.get(ctx.cookieOptions.sessionToken.name)!, expires)
        await emit(config, "session", { session })
        return session
      } catch (error) {
        // Nothing is known of the session while the storage is away: never "signed out" (a 503).
        const unavailable = storageUnavailable(error)
        if (unavailable) throw unavailable
        config.logger.error(new SessionTokenError("Reading the database session failed.", { cause: error }))
        return null
      }
    },

    async start(ctx, result) {
      await begin(ctx, result)
    },

    async end(ctx) {
      const { config } = ctx
      const hash = await requestTokenHash(ctx)
      if (hash) {
        try {
          const session = await adapter.deleteSession(hash)
          await dropPartsOf(ctx, hash)
          await emit(config, "signOut", { session: session ?? null })
        } catch (error) {
          // The session would outlive a cookie cleared now: the browser keeps it and tries again.
          const unavailable = storageUnavailable(error)
          if (unavailable) throw unavailable
          config.logger.error(new SignOutError("Deleting the session failed.", { cause: error }))
        }
      }
      clearSessionCookie(ctx)
    },

    async currentUser(ctx) {
      return (await liveStoredSession(ctx, adapter))?.user ?? null
    },

    async userId(ctx) {
      return (await this.currentUser(ctx))?.id ?? null
    },

    async currentId(ctx) {
      return (await liveStoredSession(ctx, adapter))?.hash
    },

    async signedInAt(ctx) {
      const found = await liveStoredSession(ctx, adapter)
      if (!found) return undefined
      // An acting session never signed in: whoever acts is not the user (`acting.ts`).
      if (found.acting) return undefined
      return storedStart(found.session) ?? (tracksMetadata(adapter) ? undefined : await startFromCookie(ctx, found.hash))
    },

    async refreshSignIn(ctx) {
      const found = await liveStoredSession(ctx, adapter)
      if (!found) return false
      // A new session in place of the old: its start is now, and a token that leaked before this
      // proof is worth nothing after it. What modules kept for the session goes with it.
      const { config } = ctx
      const kept = await keptParts(config.modules, config.modules.context.store!, found.hash)
      const { hash, expires } = await begin(ctx, { user: found.user, account: null, isNewUser: false, ...(found.session.factors ? { factors: found.session.factors } : {}) })
      for (const [module, value] of Object.entries(kept)) await keepPart(config.modules.context.store!, hash, module, value, expires)
      return true
    },

    async acting(ctx) {
      return (await liveStoredSession(ctx, adapter))?.acting
    },

    async setModulePart(ctx, module, value) {
      const found = await liveStoredSession(ctx, adapter)
      if (!found) return false
      await keepPart(ctx.config.modules.context.store!, found.hash, module, value, new Date(found.session.expires))
      return true
    },
  }

  /** Starts a session for `result` in place of the browser's: its hash and expiry. */
  async function begin(ctx: RequestContext, { user, recheck, factors, parts, keepCurrent, endsAt }: SignInResult): Promise<{ hash: string; expires: Date }> {
    const { config } = ctx
    const current = await requestTokenHash(ctx)
    if (current && !keepCurrent) {
      // The browser's old session is replaced; do not leave it usable.
      await adapter.deleteSession(current).catch((error: unknown) => logAside(config.logger, error))
      await dropPartsOf(ctx, current)
    }
    const { token, hash, expires } = await storeSession(ctx, adapter, String(user.id), { factors, ...(endsAt !== undefined ? { notAfter: new Date(endsAt) } : {}) })
    // A session acting on behalf of the one kept aside ends with it (`storedActing`).
    const kept = current && keepCurrent ? { ...parts, [actorSessionPart]: current } : parts
    for (const [module, value] of Object.entries(kept ?? {})) await keepPart(config.modules.context.store!, hash, module, value, expires)
    // What the sign-in rested on may have gone meanwhile (its account unlinked, its password
    // changed): asked after the session is stored, so that a removal that follows ends it too.
    if (recheck && !(await recheck())) {
      await adapter.deleteSession(hash)
      throw new AccessDenied("What this sign-in rested on was removed from the user while signing in.")
    }
    setSessionCookie(ctx, token, expires)
    if (!tracksMetadata(adapter)) await setStartCookie(ctx, hash, Date.now(), expires)
    return { hash, expires }
  }
}

/**
 * Forgets what modules kept for the session stored under `hash`, which has ended. The rows expire
 * with it anyway, so a failure is logged and the sign-out goes on.
 */
async function dropPartsOf(ctx: RequestContext, hash: string): Promise<void> {
  const { modules, logger } = ctx.config
  await dropParts(modules, modules.context.store!, hash).catch((error: unknown) => logAside(logger, error))
}
