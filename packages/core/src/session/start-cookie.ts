/**
 * When a database session started, for adapters that do not store it.
 *
 * Sesame's adapters keep a session's `createdAt`; an adapter with only the spec's operations (every
 * Auth.js adapter) stores `sessionToken`, `userId` and `expires`, and `expires` moves with every
 * extension. Without a start, no session is ever recent enough for a sensitive action (adding a
 * passkey, changing a password), however fresh the sign-in: `fresh.ts` fails closed on an unknown
 * start. So, for those adapters only, the sign-in also hands the browser a sealed cookie saying
 * when it happened, bound to that session's stored hash: it cannot be read or changed, nor moved to
 * another session, and it says nothing the session cookie beside it does not already grant (it
 * rides in the same browser). A missing or foreign one leaves the start unknown: never recent.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"

/** Hands the browser the start (ms) of the session stored under `hash`, until `expires`. */
export async function setStartCookie(ctx: RequestContext, hash: string, start: number, expires: Date): Promise<void> {
  const option = ctx.cookieOptions.sessionStart
  const maxAge = Math.max(1, Math.floor((expires.getTime() - Date.now()) / 1000))
  const cookie = await sealedCookie(ctx, option, { sid: hash, start }, maxAge)
  ctx.setCookies.push({ ...cookie, options: { ...cookie.options, expires } })
}

/** The start (ms) the request's cookie gives for the session stored under `hash`; undefined when it gives none. */
export async function startFromCookie(ctx: RequestContext, hash: string): Promise<number | undefined> {
  const contents = await unsealCookie(ctx, ctx.cookieOptions.sessionStart.name)
  if (!contents || contents.sid !== hash || typeof contents.start !== "number" || !Number.isFinite(contents.start)) return undefined
  return contents.start
}

/** Queues the deletion of the request's start cookie, when it has one. */
export function clearStartCookie(ctx: RequestContext): void {
  const { name, options } = ctx.cookieOptions.sessionStart
  if (ctx.cookies.has(name)) ctx.setCookies.push({ name, value: "", options: { ...options, maxAge: 0 } })
}
