/**
 * Sessions made from a module's own credential (`SesameModule.credentialSession`): a script
 * sending an API key to a route that reads the session with the integration's getter (`auth()`,
 * `getSession`, `locals.session`) is its key's user there, when the app turned that on in the
 * module.
 *
 * Policy:
 * - Reads of the session only (`GET session`, which every integration's getter calls): never a
 *   POST, a sign-out, a sign-in or another module's endpoint, where a cookie session's CSRF rules
 *   apply and whoever sends the credential must not count as signed in.
 * - Only a request without a session cookie (nor its chunks): a browser's session always wins, and
 *   a stale cookie is the browser's to sort out, not a reason to look at a header a page's script
 *   may have added.
 * - The module's answer names a stored user; the session holds that user as the adapter has them
 *   (id, name, address, image), the module's expiry and its part, and nothing else: the `jwt` and
 *   `session` callbacks do not run (no sign-in made it), no cookie is set, and the module's own
 *   `session` part hook is not asked (its `credentialSession` answers for it).
 * - A module that throws is logged, and the request has no session; a storage outage is the
 *   request's 503.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import type { RequestContext } from "../http/context.js"
import type { Session } from "../types.js"
import { moduleRequest } from "./request.js"

function carriesSessionCookie(ctx: RequestContext): boolean {
  const name = ctx.cookieOptions.sessionToken.name
  for (const cookie of ctx.cookies.keys()) if (cookie === name || cookie.startsWith(`${name}.`)) return true
  return false
}

/** The session the request's credential makes (see the module comment), or null. */
export async function credentialSession(ctx: RequestContext): Promise<Session | null> {
  const modules = ctx.config.modules.credentialSessions
  const adapter = ctx.config.adapter
  if (modules.length === 0 || !adapter || ctx.method !== "GET" || ctx.bearer || carriesSessionCookie(ctx)) return null
  for (const module of modules) {
    try {
      const found = await module.credentialSession!(moduleRequest(ctx, module, false))
      if (!found) continue
      if (typeof found.userId !== "string" || !(found.expires instanceof Date) || !(found.expires.getTime() > Date.now())) {
        throw new TypeError(`Plugin "${module.id}"'s \`credentialSession\` must answer { userId, expires } with an expiry in the future, or null.`)
      }
      const user = await adapter.getUser(found.userId)
      if (!user) return null
      return {
        user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null },
        expires: found.expires.toISOString(),
        ...(found.part !== undefined ? { [module.id]: found.part } : {}),
      }
    } catch (error) {
      const unavailable = storageUnavailable(error)
      if (unavailable) throw unavailable
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
      return null
    }
  }
  return null
}
