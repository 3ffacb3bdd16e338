/**
 * Session management for the signed-in user: list their sessions, revoke one, sign out everywhere
 * else. Database sessions only (a JWT cannot be revoked before it expires).
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
import { publicSessionId } from "./token.js"

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
function signedIn(request: Request, configOrLazy: AuthConfig | LazyAuthConfig): Promise<ServerUser<{ user: AdapterUser; currentHash: string }> | null> {
  const adapterOf = (config: ResolvedConfig) =>
    config.session.strategy === "database" && config.adapter
      ? config.adapter
      : new UnsupportedStrategy("Session management needs database sessions: configure an adapter (and no `session.strategy: \"jwt\"`).")
  return signedInFor(request, configOrLazy, adapterOf, async (ctx, adapter) => {
    const found = await liveStoredSession(ctx, adapter)
    return found && { user: found.user, currentHash: found.hash }
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
      return true
    }
  }
  return false
}

/**
 * Signs the request's user out everywhere but this session, and forgets the devices remembered
 * for their second factor. Returns how many sessions ended.
 */
export async function revokeOtherSessions(request: Request, config: AuthConfig | LazyAuthConfig): Promise<number> {
  const me = await signedIn(request, config)
  if (!me) return 0
  const ended = await me.adapter.deleteSessionsByUserId(me.user.id, me.currentHash)
  for (const forget of me.config.hooks.sessionsEnded) await forget(me.adapter, me.user.id)
  return ended
}
