/**
 * `GET session` returns the session (or `null`); `POST session` updates it: the posted `data`
 * reaches the `jwt` callback as `session` with trigger `update` (JWT strategy) and the `session`
 * callback as `newSession`. A POST needs the CSRF token; any failure of a POST answers `400 null`.
 *
 * @module
 */
import { MissingCSRF } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { noStore, type InternalResponse } from "../http/response.js"
import { sessionStrategy } from "../session/index.js"

export async function getSession(ctx: RequestContext): Promise<InternalResponse> {
  const session = await sessionStrategy(ctx.config).read(ctx)
  return { status: 200, body: session, headers: { ...noStore }, cookies: ctx.setCookies }
}

export async function updateSession(ctx: RequestContext): Promise<InternalResponse> {
  const csrf = await ctx.csrf()
  if (!ctx.config.skipCSRFCheck && !csrf.verified) throw new MissingCSRF("The CSRF token is missing or does not match.")
  const session = await sessionStrategy(ctx.config).read(ctx, { data: ctx.body.data })
  return { status: 200, body: session, headers: { ...noStore }, cookies: ctx.setCookies }
}
