/**
 * Where a page is shown: the built-in one, or a redirect to the app's own (`pages` option) with
 * the same query.
 *
 * @module
 */
import type { PagesOptions } from "../types.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { translator, type Translator } from "../pages/i18n.js"

/** A redirect to the configured page `name` with `params`, or null when there is none. */
export function customPage(
  ctx: RequestContext,
  name: keyof PagesOptions,
  params: Record<string, string | undefined>,
): InternalResponse | null {
  const path = ctx.config.pages[name]
  if (!path) return null
  const url = new URL(path, ctx.origin)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return { redirect: url.href, cookies: ctx.setCookies }
}

export function translatorFor(ctx: RequestContext): Translator {
  return translator(ctx.config.messages)
}

/** The URL of the sign-in page, built-in or custom. */
export function signInPageUrl(ctx: RequestContext): string {
  return ctx.config.pages.signIn ? new URL(ctx.config.pages.signIn, ctx.origin).href : `${ctx.authUrl}/signin`
}
