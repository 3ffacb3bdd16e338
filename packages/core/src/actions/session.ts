/**
 * `GET session` returns the session (or `null`; a plugin's credential may stand for a session
 * cookie there: `modules/credential-session.ts`); `POST session` updates it: the posted `data`
 * reaches the `jwt` callback as `session` with trigger `update` (JWT strategy) and the `session`
 * callback as `newSession`. A POST needs the CSRF token (checked by the dispatcher); any failure
 * of a POST answers `400 null`.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { credentialSession } from "../modules/credential-session.js"

export async function getSession(ctx: RequestContext): Promise<InternalResponse> {
  // Without a session cookie, a module's credential (an API key) may stand for one (modules/credential-session.ts).
  const session = (await ctx.config.sessionStrategy.read(ctx)) ?? (await credentialSession(ctx))
  return { status: 200, body: session, headers: { ...noStore }, cookies: ctx.setCookies }
}

export async function updateSession(ctx: RequestContext): Promise<InternalResponse> {
  const session = await ctx.config.sessionStrategy.read(ctx, { data: ctx.body.data })
  return { status: 200, body: session, headers: { ...noStore }, cookies: ctx.setCookies }
}
