/**
 * Whether a session's sign-in is recent enough for a sensitive action: the one rule behind
 * `deleteUser`, `setPassword`, the second-factor settings, adding a passkey and
 * `requireRecentSignIn`. Recent means within `session.freshAge` (or the caller's own `maxAge`) of
 * the sign-in that started the session, or of the last time its user proved who they are again
 * (`SessionStrategy.refreshSignIn`). A session whose start is unknown is never recent.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"
import type { RequestContext } from "../http/context.js"

/** Throws a `TypeError` naming `option` when a caller's own limit is not a positive number of seconds. */
export function checkMaxAge(maxAge: unknown, option = "maxAge"): void {
  if (maxAge !== undefined && !(typeof maxAge === "number" && maxAge > 0)) throw new TypeError(`\`${option}\` must be a positive number of seconds.`)
}

/** The age limit to apply: the caller's `maxAge`, else `session.freshAge`. */
export function freshAge(config: ResolvedConfig, maxAge: number | undefined): number {
  return maxAge ?? config.session.freshAge!
}

/** Whether a sign-in at `signedInAt` (ms) is within `maxAge` seconds of now. */
export function signedInRecently(signedInAt: number | undefined, maxAge: number, now = Date.now()): boolean {
  return signedInAt !== undefined && now - signedInAt <= maxAge * 1000
}

/** Whether the request's session signed in within `maxAge` seconds (default `session.freshAge`). */
export async function recentlySignedIn(ctx: RequestContext, maxAge?: number): Promise<boolean> {
  return signedInRecently(await ctx.config.sessionStrategy.signedInAt(ctx), freshAge(ctx.config, maxAge))
}
