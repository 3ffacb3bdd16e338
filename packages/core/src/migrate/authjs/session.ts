/**
 * Sessions made by Auth.js v5, carried over to Sesame (`migrateFrom: "authjs"`, off by default).
 *
 * An app that leaves Auth.js keeps its users' browsers, which hold Auth.js's session cookie; without
 * this, every one of them is signed out at the switch. With the option, each request (an endpoint's,
 * `actions/handle.ts`, or a server function's, `http/server-context.ts`) is looked at once, before
 * anything reads the session.
 *
 * Policy:
 * - Only a request without a Sesame session cookie is carried over: Sesame's own cookie wins, and an
 *   Auth.js cookie beside it is only deleted.
 * - The Auth.js cookie (`http/cookies.ts`: its name on this origin, chunks joined) is read as
 *   Auth.js wrote it for the configured strategy: an encrypted JWT (`jwt-session.ts`) or the raw
 *   token of a stored session (`database-session.ts`). A live one becomes a Sesame session: its
 *   cookie is set, and the rest of the request reads it (`ctx.treatAsSent`), as the browser's next
 *   request will. The Auth.js cookie, every chunk of it, is then deleted, whatever the outcome: one
 *   that is expired, does not decrypt or is unknown is simply no session.
 * - Except when the adapter fails: nothing is deleted and the request has no session, as a
 *   database session's read does (`session/database.ts`): an outage must not sign everyone out for good.
 * - What Auth.js did not record stays unknown, never "now": when the user signed in and how. So a
 *   carried-over session is never recent enough for a sensitive action (`session/fresh.ts`), and
 *   with `session.absoluteMaxAge` it is not carried over at all: a session whose start is unknown
 *   is past its absolute end (`session/lifetime.ts`).
 * - An Auth.js cookie the request carries twice (or whole beside chunks) is not carried over: the
 *   second copy is the sign of one planted by a sibling subdomain (`session/index.ts`), and carrying it over would launder it
 *   into a clean Sesame cookie, good for account linking.
 * - Once per browser: a carry-over leaves a cookie (`sesame.authjs-carried`, kept by sign-out) after
 *   which Auth.js's cookie is only deleted. An Auth.js cookie set with a `Domain` (shared across
 *   subdomains) cannot be deleted from here, and would otherwise sign the browser back in after a
 *   sign-out.
 * - A native app's bearer request (`http/bearer.ts`) is not looked at: it has no browser cookies.
 *
 * @module
 */
import type { CheckedAdapter } from "../../adapters/wrap.js"
import { storageUnavailable } from "../../adapters/unavailable.js"
import { SessionTokenError } from "../../errors.js"
import type { RequestContext } from "../../http/context.js"
import { clearChunkedCookie, readChunkedCookie } from "../../http/cookies.js"
import { authjsCarriedCookie, authjsSessionCookie } from "./cookies.js"
import { carryOverStoredSession } from "./database-session.js"
import { carryOverJwtSession } from "./jwt-session.js"

/** What carrying one session over came to: `unavailable` when the adapter failed (the cookie is kept). */
export type CarryOver = "carried" | "none" | "unavailable"

function hasCookie(ctx: RequestContext, name: string): boolean {
  return ctx.cookies.has(name) || ctx.cookies.has(`${name}.0`)
}

/**
 * Whether the request carries the cookie twice: a name sent twice, or the plain cookie beside
 * chunks of it (a chunk planted by a sibling subdomain would otherwise be read in place of the
 * browser's own cookie, which chunks take precedence over).
 */
function repeated(ctx: RequestContext, name: string): boolean {
  for (const sent of ctx.cookies.repeated) if (sent === name || sent.startsWith(`${name}.`)) return true
  return ctx.cookies.has(name) && ctx.cookies.has(`${name}.0`)
}

async function carryOver(ctx: RequestContext, value: string, salt: string): Promise<CarryOver> {
  const { config } = ctx
  try {
    if (config.session.strategy === "jwt") return await carryOverJwtSession(ctx, value, salt)
    // Database sessions are always bound to an adapter (`config/resolve.ts`).
    return await carryOverStoredSession(ctx, config.adapter as CheckedAdapter, value)
  } catch (error) {
    // The storage could not be reached: the request's answer is a 503, the cookie kept for the next.
    const unavailable = storageUnavailable(error)
    if (unavailable) throw unavailable
    // The adapter (or an app's `jwt.encode`) failed: no session for this request, and the cookie kept for the next.
    config.logger.error(new SessionTokenError("Carrying over an Auth.js session failed.", { cause: error }))
    return "unavailable"
  }
}

/** With `migrateFrom: "authjs"`, turns the request's Auth.js session into a Sesame session (see the module's policy). */
export async function carryOverAuthjsSession(ctx: RequestContext): Promise<void> {
  const { config } = ctx
  if (config.migrateFrom !== "authjs" || ctx.bearer) return
  const legacy = authjsSessionCookie(ctx.secure)
  if (!hasCookie(ctx, legacy.name)) return
  const queued = ctx.setCookies.length
  const value = readChunkedCookie(ctx.cookies, legacy.name)
  const carried = authjsCarriedCookie(ctx.secure)
  const eligible =
    value !== undefined &&
    !hasCookie(ctx, ctx.cookieOptions.sessionToken.name) &&
    !repeated(ctx, legacy.name) &&
    !ctx.cookies.has(carried.name) &&
    config.session.absoluteMaxAge === undefined
  const outcome = eligible ? await carryOver(ctx, value, legacy.name) : "none"
  if (outcome === "unavailable") return
  if (outcome === "carried") {
    config.logger.debug("an Auth.js session was carried over", { strategy: config.session.strategy })
    ctx.setCookies.push({ name: carried.name, value: "1", options: { ...carried.options, maxAge: config.session.maxAge } })
  }
  ctx.setCookies.push(...clearChunkedCookie(legacy.name, legacy.options, ctx.cookies))
  ctx.treatAsSent(ctx.setCookies.slice(queued))
}
