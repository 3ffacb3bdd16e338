/**
 * Where the route guards send a visitor without a session, and how.
 *
 * Policy:
 * 1. By default the guards send the visitor to the sign-in page: `pages.signIn` when the
 *    configuration sets one, otherwise the built-in page at `<prefix>/signin`, with
 *    `callbackUrl` set to the page that was asked for, so that signing in leads back to it.
 * 2. An explicit target (`redirectTo`) is a path fixed by the app, checked when the guard is made.
 *    It is used exactly as given, with one exception: when it is the sign-in page itself (the
 *    same path as in 1) and carries no `callbackUrl`, the return address is added, because that
 *    page reads it (the core hands `callbackUrl` to the built-in and to a configured page alike).
 *    Any other page may not know the parameter, so it gets nothing it did not ask for.
 * 3. The return address is always a path on this site (`/account?tab=1`), never a URL taken from
 *    a header. A document request returns to itself. A server function called from the browser
 *    (an in-app navigation, a form) has a request of its own (`/_server`), so it returns to the
 *    page the browser is on, its `Referer`, only when that is on the app's origin. Leading
 *    slashes are collapsed: a request for `//evil.example` returns to `/evil.example`, never to
 *    a protocol-relative URL.
 * 4. A target under the prefix (the built-in page) is written with the app's origin, by the core's
 *    rule (`AUTH_URL`, a trusted `Host`, or a loopback `Host`). Thrown from a server function,
 *    a path would be followed by the router inside the app, which has no page there; an absolute
 *    URL makes the browser load it. When the core refuses the request's host, the target stays a
 *    path, so a forged `Host` is never written into the redirect.
 * 5. The response is a `302` with `Cache-Control: private, no-store`: whether it applies depends
 *    on the visitor's cookies.
 *
 * @module
 */
import { appOrigin } from "@sesame/core/integration"
import type { CoreConfig, SolidAuthOptions } from "./config.js"
import { isUnderPrefix } from "./prefix.js"

/** Where a guard sends a visitor without a session: decided once, when the guard is made or called. */
export interface GuardTarget {
  /** The path (and query) to send the visitor to. */
  readonly path: string
  /** Whether the return address is added as `callbackUrl` (policy 1 and 2). */
  readonly returnAddress: boolean
  /** Whether the path is served by the auth route, so written with the app's origin (policy 4). */
  readonly underPrefix: boolean
}

/**
 * Throws a `TypeError` unless `path` is a path on this site (`/signin`, `/login?next=home`): a
 * protocol-relative `//host` or a backslash (which browsers read as `/`) would leave the site.
 */
export function checkRedirectPath(path: unknown, owner: string): asserts path is string {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//") || /[\\\s]/.test(path)) {
    throw new TypeError(`${owner}: the redirect target must be a path on this site, such as "/signin"; got ${JSON.stringify(path)}.`)
  }
}

/** The sign-in page's path: `pages.signIn`, or the built-in page under the prefix. */
export function signInPath(options: SolidAuthOptions, prefix: string, owner: string): string {
  const configured = options.pages?.signIn
  if (configured === undefined) return `${prefix}/signin`
  if (typeof configured !== "string" || !configured.startsWith("/") || configured.startsWith("//") || /[\\\s]/.test(configured)) {
    throw new TypeError(
      `${owner}: \`pages.signIn\` (${JSON.stringify(configured)}) is not a path on this site, so the guard cannot send visitors there by default; give the guard a redirect target such as "/signin".`,
    )
  }
  return configured
}

/** The target of a guard: `redirectTo` when given (checked), else the sign-in page. */
export function guardTarget(options: SolidAuthOptions, prefix: string, redirectTo: unknown, owner: string): GuardTarget {
  const signIn = signInPath(options, prefix, owner)
  if (redirectTo === undefined) return { path: signIn, returnAddress: true, underPrefix: isUnderPrefix(pathOf(signIn), prefix) }
  checkRedirectPath(redirectTo, owner)
  const url = new URL(redirectTo, "http://localhost")
  const isSignInPage = trimmed(url.pathname) === trimmed(pathOf(signIn)) && !url.searchParams.has("callbackUrl")
  return { path: redirectTo, returnAddress: isSignInPage, underPrefix: isUnderPrefix(url.pathname, prefix) }
}

/** The guard's redirect for `request` (see the module's policy). */
export function guardRedirect(target: GuardTarget, request: Request, core: CoreConfig): Response {
  if (!target.returnAddress && !target.underPrefix) return redirectResponse(target.path)
  const origin = appOrigin(core.config, request)
  const url = new URL(target.path, "http://localhost")
  const back = target.returnAddress ? returnAddress(request, origin) : undefined
  if (back !== undefined) url.searchParams.set("callbackUrl", back)
  const path = `${url.pathname}${url.search}`
  return redirectResponse(target.underPrefix && origin !== null ? `${origin}${path}` : path)
}

/** A `302` to `location`, not to be cached: whether it applies depends on the visitor's cookies. */
export function redirectResponse(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "private, no-store" } })
}

/**
 * The page to come back to after signing in, as a path on this site: the request's own for a
 * document request, else the same-origin `Referer`'s; undefined when there is none.
 */
export function returnAddress(request: Request, origin: string | null): string | undefined {
  const serverFunction = request.headers.has("x-server-id") || (request.method !== "GET" && request.method !== "HEAD")
  let page: URL
  if (!serverFunction) {
    page = new URL(request.url)
  } else {
    const referer = request.headers.get("referer")
    if (referer === null || origin === null || !URL.canParse(referer)) return undefined
    page = new URL(referer)
    if (page.origin !== origin) return undefined
  }
  // Only the path and query travel: the origin is the app's, wherever the request says it came from.
  return `/${page.pathname.replace(/^[/\\]+/, "")}${page.search}`
}

function pathOf(path: string): string {
  return new URL(path, "http://localhost").pathname
}

function trimmed(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname
}
