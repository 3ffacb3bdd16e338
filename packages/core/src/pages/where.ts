/**
 * Where a page is shown, and in which language: the built-in one, or a redirect to the app's own
 * (`pages` option) that carries what the built-in page would have used (`callbackUrl`, `error`,
 * `code`, or for verify-request the whole query).
 *
 * A configured page that is the very endpoint it replaces (`pages.error: "/auth/error"`) would
 * redirect to itself forever; that is logged as `ErrorPageLoop` and the built-in page is shown.
 *
 * @module
 */
import { ErrorPageLoop } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { actionNames, matchRoute, type Action } from "../http/request.js"
import type { InternalResponse } from "../http/response.js"
import type { PagesOptions } from "../types.js"
import { translatorForRequest, type Translator } from "./i18n.js"

/** The built-in endpoint each configurable page replaces (`newUser` replaces none). */
const endpointOf: Record<keyof PagesOptions, Action | undefined> = {
  signIn: "signin",
  signOut: "signout",
  error: "error",
  verifyRequest: "verify-request",
  newUser: undefined,
  account: "account",
}

/** The endpoints the configurable pages replace, as the dispatcher reads their paths. */
const pageActions = actionNames(["GET verify-request", "GET account"])

/** Whether `target` is, on this origin, the built-in endpoint that page `name` replaces. */
export function pageLoops(name: keyof PagesOptions, target: URL, origin: string, basePath: string): boolean {
  const endpoint = endpointOf[name]
  return endpoint !== undefined && target.origin === origin && matchRoute(target.pathname, basePath, pageActions)?.action === endpoint
}

/** A redirect to the configured page `name` with `params`, or null to show the built-in page. */
export function customPage(
  ctx: RequestContext,
  name: keyof PagesOptions,
  params: Readonly<Record<string, string | undefined>>,
): InternalResponse | null {
  const path = ctx.config.pages[name]
  if (!path) return null
  const url = new URL(path, ctx.origin)
  if (pageLoops(name, url, ctx.origin, ctx.config.basePath)) {
    ctx.config.logger.error(
      new ErrorPageLoop(`\`pages.${name}\` is the built-in endpoint it replaces, so it would redirect to itself; showing the built-in page instead.`),
    )
    return null
  }
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return { redirect: url.href, cookies: ctx.setCookies }
}

/** The translator for this request's language, with the configuration's message overrides. */
export function translatorFor(ctx: RequestContext): Translator {
  return translatorForRequest(ctx, ctx.config.messages)
}

/** The URL of the sign-in page, built-in or custom. */
export function signInPageUrl(ctx: RequestContext): string {
  return ctx.config.pages.signIn ? new URL(ctx.config.pages.signIn, ctx.origin).href : `${ctx.authUrl}/signin`
}

/** Whether `pages.error` points back at the error endpoint, which would redirect forever. */
export function errorPageLoops(ctx: RequestContext): boolean {
  const custom = ctx.config.pages.error
  return !!custom && pageLoops("error", new URL(custom, ctx.origin), ctx.origin, ctx.config.basePath)
}
