/**
 * Counting a client's requests and refusing those over the limit: `429 Too Many Requests` with
 * `Retry-After`, the page for a browser's navigation or form and JSON otherwise, and a
 * `rate-limited` security event once per client, family and window.
 *
 * Fixed windows: a request increments the counter of its client, family and window (its key ends
 * with the window's number, and it expires with the window), which is one atomic increment in any
 * store. A client may thus send up to twice the limit across a window's end, never more.
 *
 * What the limits cannot do without: the client's address (`http/client-ip.ts`). When it is not
 * known (no proxy trusted, and an integration that does not hand over the socket's address), the
 * request is not limited: a shared count for every unknown client would let one of them lock all
 * the others out. The log says so once: a warning when the app asked for the limits (`rateLimit`),
 * a debug line when they are on only by default (Next.js's route handlers, which have no socket to
 * read, would otherwise warn about a set-up the guide recommends).
 *
 * A store that cannot be reached lets requests through, logged: the limits protect the service,
 * and a Redis restart must not take every endpoint down with it.
 *
 * @module
 */
import { storageUnavailable } from "../adapters/unavailable.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { RequestContext } from "../http/context.js"
import { acceptsHtml, asAuthError, logUnreported } from "../http/error-response.js"
import type { HeaderReader, Incoming } from "../http/incoming.js"
import { json, noStore, type InternalResponse } from "../http/response.js"
import type { RequestLimiter } from "../modules/feature.js"
import type { RateLimitFamily } from "../modules/route.js"
import { html } from "../pages/html.js"
import { page } from "../pages/layout.js"
import { translatorFor } from "../pages/where.js"
import { emitSecurity } from "../security-events.js"
import { addressKey } from "./address.js"
import type { ResolvedRateLimit } from "./settings.js"

/** A refusal: how long until the client's window ends. */
interface Refusal {
  readonly retryAfter: number
}

/**
 * Whether this process has said it cannot tell a client apart: once, as a lazy configuration is a
 * new one at every request.
 */
let saidBlind = false

/** Counts the request; a refusal when it is over its family's limit. */
async function count(config: ResolvedConfig, settings: ResolvedRateLimit, headers: HeaderReader, peer: string | undefined, family: RateLimitFamily): Promise<Refusal | undefined> {
  const rule = Object.hasOwn(settings.rules, family) ? settings.rules[family] : undefined
  if (!rule) return undefined
  const address = config.clientAddress(headers, peer)
  if (!address) {
    if (!saidBlind) {
      saidBlind = true
      if (settings.asked) config.logger.warn("rate-limit-no-address")
      else config.logger.debug("rate limits: a request without the client's address is not limited (see the rate-limit-no-address warning's text; set `trustedProxy` behind a proxy)")
    }
    return undefined
  }
  const now = Date.now()
  const windowMs = rule.window * 1000
  const window = Math.floor(now / windowMs)
  const ends = (window + 1) * windowMs
  let counted: number
  try {
    counted = (await settings.store.incrementCounter(`sesame:rate:${family}:${addressKey(address, settings.ipv6Prefix)}:${window}`, new Date(ends))).count
  } catch (error) {
    const unavailable = storageUnavailable(error)
    if (unavailable) logUnreported(config, unavailable)
    else config.logger.error(asAuthError(error))
    return undefined
  }
  if (counted <= rule.max) return undefined
  const retryAfter = Math.max(1, Math.ceil((ends - now) / 1000))
  // Once per window: a flood of refused requests is one line in the audit log, not thousands.
  if (counted === rule.max + 1) {
    await emitSecurity(config, { get: (name) => headers.get(name), peer }, {
      type: "rate-limited",
      userId: null,
      actorId: null,
      details: { family, limit: rule.max, window: rule.window, retryAfter },
    })
  }
  return { retryAfter }
}

/** The JSON answer to a refused request. */
function refusedJson(refusal: Refusal): InternalResponse {
  const message = `Too many requests. Try again in ${refusal.retryAfter} s.`
  return json({ error: "RateLimited", message }, 429, { ...noStore, "Retry-After": String(refusal.retryAfter) })
}

/** The answer to a refused request: the page for a browser's navigation or form, else JSON. */
function refused(ctx: RequestContext, family: RateLimitFamily, refusal: Refusal): InternalResponse {
  if (family === "session" || ctx.returnRedirect || !acceptsHtml(ctx.headers)) return refusedJson(refusal)
  const t = translatorFor(ctx)
  const heading = t.t("rateLimit.heading")
  // A form cannot be posted again by a link: "try again" goes to the page itself only for a GET.
  const retryUrl = ctx.method === "GET" ? `${ctx.origin}${ctx.url.pathname}${ctx.url.search}` : undefined
  const body = html`<h1>${heading}</h1>
<p class="lead">${t.t("rateLimit.text", { seconds: String(refusal.retryAfter) })}</p>
${retryUrl ? html`<p class="links"><a href="${retryUrl}">${t.t("rateLimit.retry")}</a></p>` : ""}`
  const answer = page({ lang: t.lang, title: heading, theme: ctx.config.theme, body, status: 429 })
  return { ...answer, headers: { ...answer.headers, ...noStore, "Retry-After": String(refusal.retryAfter) } }
}

/** The limiter of the settings under `config.rateLimit`. */
export const rateLimiter: RequestLimiter = {
  async request(ctx, family) {
    const settings = ctx.config.rateLimit
    // The app's own server reading the session for a page it renders is no request of the client's.
    if (!settings || ctx.appRead) return undefined
    const refusal = await count(ctx.config, settings, ctx.headers, ctx.peer, family)
    return refusal && refused(ctx, family, refusal)
  },
  async service(config, incoming: Incoming) {
    const settings = config.rateLimit
    if (!settings) return undefined
    const refusal = await count(config, settings, incoming.headers, incoming.peer, "services")
    return refusal && refusedJson(refusal)
  },
}
