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
 * - The module's answer names a stored user whom no module holds back (`userStanding`: a
 *   suspension), whatever the module checked itself.
 * - The session is read as the configuration's strategy reads one of that user, so the app's rules
 *   hold for it too: with JWT sessions the `jwt` callback gets the user's token (`sub`, `name`,
 *   `email`, `picture`) and null from it is no session (an app that shuts a user out there shuts
 *   their credential out too), then the `session` callback gets `{ session, token }`; with database
 *   sessions it gets `{ session, user, token }`. The session it starts from is the user's (`id`
 *   among the fields, which a script sending a credential needs), the user fields the session
 *   carries, the module's expiry and its part (`session[<id>]`). Other modules' parts are not
 *   asked (they belong to a signed-in session), no cookie is set, and no `session` event is sent.
 * - A module that throws is logged, and the request has no session; a storage outage is the
 *   request's 503.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import type { RequestContext } from "../http/context.js"
import type { Session } from "../types.js"
import type { AdapterUser } from "../adapters/types.js"
import { sessionUserFields } from "../user/fields.js"
import { moduleRequest } from "./request.js"
import { heldBack } from "./standing.js"

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
      if (!user || (await heldBack(ctx.config, user.id))) return null
      return await throughCallbacks(ctx, user, {
        ...(found.part !== undefined ? { [module.id]: found.part } : {}),
        user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null, ...sessionUserFields(ctx.config.userFields, user) },
        expires: found.expires.toISOString(),
      })
    } catch (error) {
      const unavailable = storageUnavailable(error)
      if (unavailable) throw unavailable
      ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
      return null
    }
  }
  return null
}

/** `defaults` through the app's callbacks, as the strategy reads a session of `user` (see the module comment). */
async function throughCallbacks(ctx: RequestContext, user: AdapterUser, defaults: Session): Promise<Session | null> {
  const { callbacks, session } = ctx.config
  const token = { sub: user.id, name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null }
  if (session.strategy === "database") return (await callbacks.session({ session: defaults, user, token })) as Session
  const returned = await callbacks.jwt({ token })
  if (!returned) return null
  return (await callbacks.session({ session: defaults, token: returned })) as Session
}
