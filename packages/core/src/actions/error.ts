/**
 * `GET error?error=<code>` shows the error page (or redirects to `pages.error`).
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { errorPage, errorPageCode } from "../pages/error.js"
import { customPage, signInPageUrl, translatorFor } from "../pages/where.js"

export function showError(ctx: RequestContext, code?: string): InternalResponse {
  const error = code ?? ctx.query.error
  const custom = customPage(ctx, "error", { error: error ? errorPageCodeOrRaw(error) : undefined })
  if (custom) return custom
  const response = errorPage({ error, signInUrl: signInPageUrl(ctx), theme: ctx.config.theme }, translatorFor(ctx))
  return { ...response, cookies: ctx.setCookies }
}

/** Codes passed on to a custom error page: letters only, else the generic code. */
function errorPageCodeOrRaw(error: string): string {
  return /^[A-Za-z]{1,40}$/.test(error) ? error : errorPageCode(error)
}
