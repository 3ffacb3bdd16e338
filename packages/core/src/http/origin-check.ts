/**
 * Refusing cross-site state-changing requests, from what the browser says about where a request
 * comes from. This stands beside the CSRF token (`http/csrf.ts`), not instead of it: the token can
 * be defeated by an attacker who plants a cookie, these headers cannot, since no page can set them.
 *
 * For a POST the dispatcher (`actions/index.ts`) marks as state-changing:
 * - `Origin` present with an origin: it must be one the app accepts ({@link acceptsOrigin}: its
 *   own, `ctx.origin`, which is AUTH_URL's when that is set, or one of its `trustedOrigins`). Every
 *   other origin is refused.
 * - Otherwise, `Sec-Fetch-Site` present: `same-origin` and `none` (typed, bookmarked) pass.
 *   `cross-site` is refused, and so is `same-site`: a sibling subdomain is same-site, and it is
 *   exactly the attacker who can plant cookies. An unknown value is refused too.
 * - `Origin: null` without `Sec-Fetch-Site`: refused. The browser hides where the post comes from
 *   (a sandboxed frame, a `file:` page, a redirect across sites) and says nothing else about it.
 * - Neither header: allowed. Browsers send `Origin` on every POST and `Sec-Fetch-Site` on every
 *   request, so this is a server-to-server call, a framework's server action, or an old client;
 *   the CSRF token still applies to it.
 *
 * Why `Origin: null` defers to `Sec-Fetch-Site` rather than being refused outright: a page served
 * with `Referrer-Policy: no-referrer` (many apps' hardened pages are) makes the browser send
 * `Origin: null` on every form post, its own origin's included, while `Sec-Fetch-Site` still says
 * `same-origin`. An opaque or cross-site initiator is never `same-origin` there: a sandboxed frame
 * or a redirect through another site makes it `cross-site`. Sesame's own pages send
 * `Referrer-Policy: strict-origin` (`pages/layout.ts`), so their posts name the app's origin and
 * are decided by the first rule.
 *
 * `Origin` is read first, and decides alone when it names an origin, so that an origin the app
 * chooses to trust passes whatever `Sec-Fetch-Site` says about it.
 *
 * @module
 */
import type { RequestContext } from "./context.js"
import { BadRequest } from "../errors.js"

/** A state-changing request that the browser says comes from another origin or site: a 403. */
export class CrossSiteRequest extends BadRequest {
  constructor(message: string) {
    super(message, 403)
  }
}

/** What the origin decision reads from the context. */
export type OriginContext = Pick<RequestContext, "origin" | "config">

/**
 * Whether the app accepts state-changing requests from `origin`, the value of an `Origin` header.
 * Browsers serialise it exactly as `URL.origin` does (scheme, host and non-default port, in lower
 * case), which is how `ctx.origin` is made, so the comparison is exact.
 */
export function acceptsOrigin(ctx: OriginContext, origin: string): boolean {
  return origin === ctx.origin || ctx.config.trustedOrigins.matches(origin)
}

/** `Sec-Fetch-Site` values that say the request was not started by another site's page. */
const ownSite: ReadonlySet<string> = new Set(["same-origin", "none"])

/** Where the app's origin came from, for the message of a refusal. */
function originSource(ctx: OriginContext): string {
  if (ctx.config.publicUrl) return "from AUTH_URL / SESAME_URL"
  return ctx.config.hostPolicy === "proxy" ? "from the request's X-Forwarded-Host / Host headers" : "from the request's Host header, a loopback host"
}

/** `origin` when it is a well-formed origin (which holds no character to escape), else a description. */
function describeOrigin(origin: string): string {
  try {
    if (new URL(origin).origin === origin) return origin
  } catch {
    // Described below.
  }
  return "a malformed origin"
}

/**
 * Throws a {@link CrossSiteRequest} when the browser says this request comes from another origin
 * or site, or hides its origin and says nothing else; returns when it says the request is the
 * app's own, or says nothing at all.
 */
export function assertSameOrigin(ctx: OriginContext & Pick<RequestContext, "headers">): void {
  const origin = ctx.headers.get("origin")
  if (origin !== null && origin !== "null") {
    if (acceptsOrigin(ctx, origin)) return
    throw new CrossSiteRequest(
      `Refused a cross-origin request: its origin (${describeOrigin(origin)}) differs from the app's origin (${ctx.origin}, ${originSource(ctx)}). ` +
        "Signing in, signing out and updating the session are only accepted from the app's own pages. " +
        "If this is your own page, open the app at the app's origin, or set AUTH_URL to the origin you browse it at.",
    )
  }
  const site = ctx.headers.get("sec-fetch-site")
  if (site === null) {
    if (origin === null) return
    throw new CrossSiteRequest(
      `Refused a request whose origin the browser hides ("Origin: null": a sandboxed frame, a file, or a redirect from another site). ` +
        `Signing in, signing out and updating the session are only accepted from the app's own pages, at ${ctx.origin}.`,
    )
  }
  if (ownSite.has(site)) return
  const said = site === "cross-site" || site === "same-site" ? `Sec-Fetch-Site: ${site}` : "an unknown Sec-Fetch-Site value"
  throw new CrossSiteRequest(
    `Refused a cross-site request: the browser says it comes from another site's page (${said}). ` +
      `Signing in, signing out and updating the session are only accepted from the app's own pages, at ${ctx.origin}.`,
  )
}
