/**
 * Session management for the signed-in user: list their sessions, revoke one, sign out everywhere
 * else. Database sessions, which are stored; "sign out everywhere else" also ends JWT sessions with
 * `session.revocation`.
 *
 * A listed session is named by a public id derived from its stored hash (`publicSessionId`), so
 * neither the token nor the stored hash ever leaves the server.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { UnsupportedStrategy } from "../errors.js"
import { signedInFor, type ServerUser } from "../http/server-context.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { storedSessionLive } from "./lifetime.js"
import { liveStoredSession } from "./database.js"
import { currentActing } from "./acting.js"
import { endUserSessions } from "./end-all.js"
import { publicSessionId } from "./token.js"
import { emitSecurity } from "../security-events.js"

/** One of the signed-in user's sessions. */
export interface SessionInfo {
  /** Identifies the session in `revokeSession`. Not a credential. */
  id: string
  /** Whether this is the session of the request. */
  current: boolean
  expires: Date
  createdAt: Date | null
  /** When the session was last extended (at `updateAge` resolution). */
  lastUsedAt: Date | null
  /** The `User-Agent` of the request that started it. */
  userAgent: string | null
}

/** The request's valid database session (the hash of its token) and its user, or null. Throws for a bad configuration. */
function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<ServerUser<{ user: AdapterUser; currentHash: string; actor: string | undefined }> | null> {
  const adapterOf = (config: ResolvedConfig) =>
    config.session.strategy === "database" && config.adapter
      ? config.adapter
      : new UnsupportedStrategy("Session management needs database sessions: configure an adapter (and no `session.strategy: \"jwt\"`).")
  return signedInFor(request, configOrLazy, adapterOf, async (ctx, adapter) => {
    const found = await liveStoredSession(ctx, adapter)
    return found && { user: found.user, currentHash: found.hash, actor: (await currentActing(ctx))?.actorId }
  })
}

/**
 * The sessions of the request's user, newest first, or null when the request is not signed in.
 *
 * @example
 * ```ts
 * const sessions = await listSessions(request, config)
 * ```
 */
export async function listSessions(request: Request, config: AuthConfig | LazyAuthConfig): Promise<SessionInfo[] | null> {
  const me = await signedIn(request, config)
  if (!me) return null
  const now = Date.now()
  const sessions = (await me.adapter.listSessionsByUserId(me.user.id)).filter((s) => storedSessionLive(me.config.session, s, now))
  const infos = await Promise.all(
    sessions.map(async (s) => ({
      id: await publicSessionId(s.sessionToken),
      current: s.sessionToken === me.currentHash,
      expires: new Date(s.expires),
      createdAt: s.createdAt ? new Date(s.createdAt) : null,
      lastUsedAt: s.lastUsedAt ? new Date(s.lastUsedAt) : null,
      userAgent: s.userAgent ?? null,
    })),
  )
  return infos.sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
}

/**
 * Revokes one of the request user's sessions by its `id` (from `listSessions`). Returns whether a
 * session was revoked; another user's session id is never found. Revoking the current session
 * signs this browser out on its next request.
 */
export async function revokeSession(request: Request, config: AuthConfig | LazyAuthConfig, id: string): Promise<boolean> {
  const me = await signedIn(request, config)
  if (!me) return false
  for (const session of await me.adapter.listSessionsByUserId(me.user.id)) {
    if ((await publicSessionId(session.sessionToken)) === id) {
      await me.adapter.deleteSession(session.sessionToken)
      await emitSecurity(me.config, request.headers, { type: "session.revoked", userId: me.user.id, ...(me.actor ? { actorId: me.actor } : {}) })
      return true
    }
  }
  return false
}

/**
 * The request's valid session and its stored user, for ending the user's other sessions: a
 * database session, or a JWT session with `session.revocation` (the session's `sid` is kept).
 */
function signedInToEndOthers(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<ServerUser<{ user: AdapterUser; keep: string | undefined; actor: string | undefined }> | null> {
  const adapterOf = (config: ResolvedConfig) =>
    config.adapter && (config.session.strategy === "database" || config.sessionRevocation)
      ? config.adapter
      : new UnsupportedStrategy("Signing out other sessions needs database sessions, or JWT sessions with `session.revocation`, and an adapter.")
  return signedInFor(request, configOrLazy, adapterOf, async (ctx, adapter) => {
    if (ctx.config.session.strategy === "database") {
      const found = await liveStoredSession(ctx, adapter)
      return found && { user: found.user, keep: found.hash, actor: (await currentActing(ctx))?.actorId }
    }
    // With an adapter the JWT strategy's user is the stored one (it looks the token's `sub` up).
    const user = (await ctx.config.sessionStrategy.currentUser(ctx)) as AdapterUser | null
    if (typeof user?.id !== "string") return null
    return { user, keep: await ctx.config.sessionStrategy.currentId(ctx), actor: (await currentActing(ctx))?.actorId }
  })
}

/**
 * Signs the request's user out everywhere but this session, and forgets the devices remembered
 * for their second factor. Returns how many database sessions ended. With JWT sessions it needs
 * `session.revocation`: the other sessions end at their next read (within its bound), and they are
 * not counted (0), since nothing stores them.
 */
export async function revokeOtherSessions(request: Request, config: AuthConfig | LazyAuthConfig): Promise<number> {
  const me = await signedInToEndOthers(request, config)
  if (!me) return 0
  const ended = await endUserSessions(me.config, me.adapter, me.user.id, me.keep)
  // An admin acting as the user is who did it.
  await emitSecurity(me.config, request.headers, { type: "sessions.revoked", userId: me.user.id, ...(me.actor ? { actorId: me.actor } : {}), details: { count: ended } })
  return ended
}
