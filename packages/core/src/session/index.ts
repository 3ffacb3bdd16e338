/**
 * Who is signed in on this browser. (The strategy that keeps sessions is the configuration's
 * `sessionStrategy`.)
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { RequestContext } from "../http/context.js"
import type { User } from "../types.js"

/**
 * The user signed in on this browser, for decisions that attach something to them (linking an
 * account, adding a passkey). A session cookie the request carries twice counts as no user: the
 * second copy is the sign of one planted by a sibling subdomain (the `__Secure-` prefix does not
 * stop that), and linking the visitor's account into the planter's user would be login CSRF. Reads
 * of the session itself keep taking the first copy, so a stale cookie left by an earlier cookie
 * domain does not sign anyone out for good.
 */
export async function signedInUser(ctx: RequestContext): Promise<User | AdapterUser | null> {
  return sessionCookieRepeated(ctx) ? null : ctx.config.sessionStrategy.currentUser(ctx)
}

/** The id of the user signed in on this browser, by the same rule as {@link signedInUser}, for what is issued in their name (an API token). */
export async function signedInUserId(ctx: RequestContext): Promise<string | null> {
  return sessionCookieRepeated(ctx) ? null : ctx.config.sessionStrategy.userId(ctx)
}

function sessionCookieRepeated(ctx: RequestContext): boolean {
  const name = ctx.cookieOptions.sessionToken.name
  for (const repeated of ctx.cookies.repeated) if (repeated === name || repeated.startsWith(`${name}.`)) return true
  return false
}
