/**
 * The two lifetimes of a session, shared by both strategies.
 *
 * - Idle (`maxAge`): a use may push the expiry to now + `maxAge`, at most once per `updateAge`
 *   (see {@link dueForExtension}); so an active user stays signed in and an idle one is signed out
 *   `maxAge` after their last extension.
 * - Absolute (`absoluteMaxAge`, off by default): the session ends that long after its sign-in,
 *   however often it is used. Every expiry Sesame writes (cookie, JWT `exp`, stored `expires`) is
 *   capped at that instant, and a read after it ends the session. A session whose start is unknown
 *   (a JWT without `auth_time`, a stored session without `createdAt`, both made before the option
 *   was set) counts as past it: failing closed signs such users in once more, while trusting an
 *   unknown start would let a stolen session live for ever.
 *
 * @module
 */
import type { AdapterSession } from "../adapters/types.js"
import type { SessionOptions } from "../types.js"

/**
 * The instant (ms since the epoch) at which a session that started at `startedAt` (ms) ends:
 * `Infinity` without an absolute lifetime, `-Infinity` (already ended) when the start is unknown.
 */
export function absoluteEnd(options: Pick<SessionOptions, "absoluteMaxAge">, startedAt: number | undefined): number {
  if (options.absoluteMaxAge === undefined) return Number.POSITIVE_INFINITY
  if (startedAt === undefined || !Number.isFinite(startedAt)) return Number.NEGATIVE_INFINITY
  return startedAt + options.absoluteMaxAge * 1000
}

/** A session's new expiry when used at `now`: `now + maxAge`, never after `end`. */
export function cappedExpiry(now: number, maxAgeSeconds: number, end: number): Date {
  return new Date(Math.min(now + maxAgeSeconds * 1000, end))
}

/**
 * Whether a session used at `now` is extended (JWT: re-issued; database: its `expires` written):
 * once `updateAge` has passed since it was last extended (`lastExtended`, ms), so at most once per
 * `updateAge` (on every use when it is 0). Also when less than `updateAge` is left before it
 * `expires` (ms): with a `maxAge` shorter than `updateAge` (an app's choice), waiting for `updateAge`
 * would sign out a user in the middle of using the app.
 */
export function dueForExtension(lastExtended: number, expires: number, now: number, updateAgeSeconds: number): boolean {
  const window = updateAgeSeconds * 1000
  return lastExtended + window <= now || expires - window <= now
}

/** When a stored session started, from its `createdAt` (which an adapter may hand back as a string). */
export function storedStart(session: Pick<AdapterSession, "createdAt">): number | undefined {
  if (session.createdAt === undefined || session.createdAt === null) return undefined
  const time = new Date(session.createdAt).getTime()
  return Number.isFinite(time) ? time : undefined
}

/** Whether a stored session is within both lifetimes at `now`. */
export function storedSessionLive(options: Pick<SessionOptions, "absoluteMaxAge">, session: AdapterSession, now: number): boolean {
  // An adapter that serialises dates may hand back a string; anything unreadable counts as expired.
  return new Date(session.expires).getTime() > now && now < absoluteEnd(options, storedStart(session))
}
