/**
 * `GET error?error=<code>` shows the error page (or redirects to `pages.error`), and the
 * `Configuration` error page of a configuration that does not resolve.
 *
 * @module
 */
import { defaultTheme } from "../config/defaults.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { errorPage, errorPageCode } from "../pages/error.js"
import { translatorForRequest } from "../pages/i18n.js"
import type { PagesOptions } from "../types.js"
import { customPage, pageLoops, signInPageUrl, translatorFor } from "./pages.js"

/** Whether `pages.error` points back at this endpoint, which would redirect forever. */
export function errorPageLoops(ctx: RequestContext): boolean {
  const custom = ctx.config.pages.error
  return !!custom && pageLoops("error", new URL(custom, ctx.origin), ctx.origin, ctx.config.basePath)
}

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

/**
 * The answer to a page request when the configuration does not resolve, or refuses the request's
 * host: a redirect to `pages.error` with `error=Configuration`, or the built-in page (500) in the
 * visitor's language. The built-in page is also shown when the request comes from `pages.error`
 * itself (its `callbackUrl` is that page): the app's error page cannot work with a broken
 * configuration either, and sending the browser back there would loop.
 *
 * `origin` is the app's public origin when it is known (`AUTH_URL`). Otherwise nothing here can
 * tell whether the request's host is the app's, so every URL is left relative to whatever the
 * browser asked for: a forged `Host` header is never written into a `Location` or a link.
 */
export function configurationErrorPage(
  request: Request,
  basePath: string,
  pages: Readonly<Partial<PagesOptions>>,
  origin: string | undefined,
): InternalResponse {
  const url = new URL(request.url)
  const base = origin ?? url.origin
  /** `target` as the answer writes it: absolute on the known origin, else as configured. */
  const written = (configured: string, target: URL) => (origin || !configured.startsWith("/") ? target.href : `${target.pathname}${target.search}`)
  if (pages.error) {
    const target = new URL(pages.error, base)
    if (!pageLoops("error", target, base, basePath) && !isPage(url.searchParams.get("callbackUrl"), target)) {
      target.searchParams.set("error", "Configuration")
      return { redirect: written(pages.error, target) }
    }
  }
  const signInUrl = pages.signIn ? written(pages.signIn, new URL(pages.signIn, base)) : `${origin ?? ""}${basePath}/signin`
  return errorPage({ error: "Configuration", signInUrl, theme: defaultTheme }, translatorForRequest(request))
}

/** Whether `candidate` (resolved against `page`'s origin) is `page`, whatever its query. */
function isPage(candidate: string | null, page: URL): boolean {
  if (!candidate) return false
  try {
    const url = new URL(candidate, page.origin)
    return url.origin === page.origin && url.pathname.replace(/\/+$/, "") === page.pathname.replace(/\/+$/, "")
  } catch {
    return false
  }
}
