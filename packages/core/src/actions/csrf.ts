/**
 * `GET csrf`: the CSRF token for forms built by the app (sets the CSRF cookie when missing).
 * With `skipCSRFCheck` there is no token: 404, and any CSRF cookie is cleared.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { expiredCookie } from "../http/cookies.js"
import { json, noStore, type InternalResponse } from "../http/response.js"

export async function csrf(ctx: RequestContext): Promise<InternalResponse> {
  const cookie = ctx.cookieOptions.csrfToken
  if (ctx.config.skipCSRFCheck) {
    return { ...json({ error: "CSRF tokens are disabled." }, 404), cookies: [expiredCookie(cookie.name, cookie.options)] }
  }
  const { token } = await ctx.csrf()
  return { ...json({ csrfToken: token }, 200, noStore), cookies: ctx.setCookies }
}
