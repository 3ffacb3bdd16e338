/**
 * `GET verify-request`: "check your email", after an email sign-in link was requested.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { verifyRequestPage } from "../pages/verify-request.js"
import { customPage, translatorFor } from "../pages/where.js"

export function showVerifyRequest(ctx: RequestContext): InternalResponse {
  const custom = customPage(ctx, "verifyRequest", ctx.query)
  if (custom) return custom
  const response = verifyRequestPage({ origin: ctx.origin, theme: ctx.config.theme }, translatorFor(ctx))
  return { ...response, cookies: ctx.setCookies }
}
