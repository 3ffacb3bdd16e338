/**
 * JWT sessions that can be ended (`session.revocation`): a per-user "sessions valid after" time.
 *
 * A JWT session lives in the browser, so ending one means refusing it at its next read. Each user
 * who had their sessions ended has one row in the model below: the instant before which their
 * sessions no longer count (`validAfter`) and, for "sign out everywhere else", the one session
 * that stays (`keep`, the token's `sid` claim). A token's start is its `started_at` claim
 * (milliseconds, set at sign-in, kept at every re-issue and step-up); a token without one (made
 * before this option, or carried over from Auth.js) counts from its `auth_time`, or from the
 * beginning of time.
 *
 * The rows are read through a short cache per configuration (`cache` seconds, 0 = every read), so
 * the documented bound is: a session is refused at most `cache` seconds after it was ended, on an
 * instance that read the row before; at once on the instance that ended it, which updates its cache
 * as it writes. Users who never had their sessions ended are cached as such too, so a read costs
 * the store one lookup per user per `cache` seconds and instance.
 *
 * A row is needed only while a token made before it can still be alive: it expires once the
 * longest a token lives (`jwt.maxAge`, `session.maxAge`) has passed, plus the cache. It refers to
 * no user, so that a deleted user's tokens stay refused after the user's row is gone.
 *
 * The model is declared by the core and used only when the app turns the option on: `modelsOf`
 * then hands it to `migrate`, and a database made before it keeps working as it did.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { MissingAdapter } from "../errors.js"
import { replaceRow } from "../store/replace.js"
import type { ModelDeclaration, Store } from "../store/model.js"
import type { SessionOptions } from "../types.js"

/** One user's "sessions valid after" time. */
export const sessionRevocationModel = {
  name: "sessionRevocation",
  table: "sesame_session_revocations",
  primaryKey: ["userId"],
  fields: {
    userId: { type: "string" },
    /** Sessions that started before this instant are refused. */
    validAfter: { type: "date" },
    /** The `sid` of the one session that stays ("sign out everywhere else"). */
    keep: { type: "string", optional: true },
    /** When no token made before `validAfter` can be alive any more. */
    expires: { type: "date" },
  },
  expires: "expires",
} as const satisfies ModelDeclaration

/** The option resolved: how long a row read is believed (ms). */
export interface RevocationSettings {
  readonly cacheMs: number
}

/** The default bound, in seconds. */
export const defaultRevocationCache = 30

/**
 * Checks `session.revocation`; undefined when off, and with database sessions, which end by being
 * deleted. Needs a generic store, where the rows live.
 */
export function resolveRevocation(session: Pick<SessionOptions, "strategy" | "revocation">, store: boolean): RevocationSettings | undefined {
  const option = session.revocation
  if (option === undefined || option === false) return undefined
  if (typeof option !== "boolean" && (typeof option !== "object" || option === null)) {
    throw new TypeError(`\`session.revocation\` must be true, false or { cache }; got ${JSON.stringify(option)}.`)
  }
  const cache = option === true ? defaultRevocationCache : option.cache ?? defaultRevocationCache
  if (typeof cache !== "number" || !Number.isFinite(cache) || cache < 0) {
    throw new TypeError(`\`session.revocation.cache\` must be 0 or a positive number of seconds; got ${JSON.stringify(cache)}.`)
  }
  if (session.strategy === "database") return undefined
  if (!store) {
    throw new MissingAdapter(
      "`session.revocation` keeps each user's \"sessions valid after\" time in the adapter's generic store: configure one of Sesame's adapters (an adapter without a store, such as Auth.js's, cannot end JWT sessions).",
    )
  }
  return Object.freeze({ cacheMs: cache * 1000 })
}

/** What a token says of its session, for the check. */
export interface TokenSession {
  sub: string
  /** `sid`: the session's id, the same across re-issues. */
  sid?: string
  /** When the session started (ms). */
  startedAt: number
}

interface Cut {
  validAfter: number
  keep: string | null
}

interface CacheEntry {
  cut: Cut | null
  readAt: number
}

const maxEntries = 10_000
const caches = new WeakMap<ResolvedConfig, Map<string, CacheEntry>>()

function cacheOf(config: ResolvedConfig): Map<string, CacheEntry> {
  let cache = caches.get(config)
  if (!cache) caches.set(config, (cache = new Map()))
  return cache
}

function remember(config: ResolvedConfig, userId: string, cut: Cut | null, now: number): void {
  const cache = cacheOf(config)
  // A read that began before a cut this instance wrote must not put back what it found.
  if ((cache.get(userId)?.readAt ?? Number.NEGATIVE_INFINITY) > now) return
  cache.delete(userId)
  // Oldest out first: a Map iterates in insertion order.
  if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!)
  cache.set(userId, { cut, readAt: now })
}

function storeOf(config: ResolvedConfig): Store {
  // `resolveRevocation` refused a configuration without one.
  return config.adapter!.store!
}

async function cutOf(config: ResolvedConfig, settings: RevocationSettings, userId: string, now: number): Promise<Cut | null> {
  const cached = cacheOf(config).get(userId)
  if (cached && settings.cacheMs > 0 && now - cached.readAt < settings.cacheMs) return cached.cut
  const row = await storeOf(config).findOne(sessionRevocationModel, { userId })
  const cut = row ? { validAfter: (row.validAfter as Date).getTime(), keep: (row.keep as string | null) ?? null } : null
  remember(config, userId, cut, now)
  return cut
}

/**
 * Whether the token's session was ended (`session.revocation` on, and the user's sessions ended
 * after it started, unless it is the one kept). A storage outage is thrown as `StorageUnavailable`:
 * "could not ask" is not "valid".
 */
export async function sessionRevoked(config: ResolvedConfig, token: TokenSession): Promise<boolean> {
  const settings = config.sessionRevocation
  if (!settings) return false
  const cut = await cutOf(config, settings, token.sub, Date.now())
  if (!cut) return false
  if (cut.keep !== null && token.sid === cut.keep) return false
  // A session started in the very millisecond of the cut is ended too: which came first is not
  // known, and the one that made the cut is kept by `keep`.
  return token.startedAt <= cut.validAfter
}

/** How long a row must stay: until no token started before it can be alive. */
function rowLifetime(config: ResolvedConfig, settings: RevocationSettings): number {
  return Math.max(config.jwt.maxAge, config.session.maxAge) * 1000 + settings.cacheMs + 60_000
}

/**
 * Ends the JWT sessions of `userId` started until now, but the one whose `sid` is `keep`. Does
 * nothing when the option is off. `store`: the store to write to (a transaction's, so that the cut
 * and what caused it are stored together), else the adapter's.
 */
export async function endJwtSessions(config: ResolvedConfig, userId: string, options: { keep?: string | undefined; store?: Store | undefined } = {}): Promise<void> {
  const settings = config.sessionRevocation
  if (!settings) return
  const now = Date.now()
  const cut: Cut = { validAfter: now, keep: options.keep ?? null }
  await replaceRow(options.store ?? storeOf(config), sessionRevocationModel, {
    userId,
    validAfter: new Date(now),
    keep: cut.keep,
    expires: new Date(now + rowLifetime(config, settings)),
  })
  // This instance refuses the ended sessions at once, whatever its cache held.
  remember(config, userId, cut, now)
}

/** Whether the session options turn revocation on (for `modelsOf`: the model is migrated only then). */
export function revocationOn(session: Partial<SessionOptions> | undefined): boolean {
  return session?.revocation !== undefined && session.revocation !== false
}
