/**
 * What an integration answers when a session read finds the storage unreachable
 * (`StorageUnavailable`): never the sign-in redirect a guard gives a visitor without a session,
 * since nothing is known of this visitor's session, but the core's own `503`: the unavailable page
 * for a request that accepts HTML (a browser's), JSON for any other (a script's `fetch`, `curl`),
 * as the core's endpoints choose; with `Retry-After` and no cookie.
 *
 * @module
 */
import { defaultTheme } from "../config/defaults.js"
import { resolveConfig } from "../config/resolve.js"
import type { StorageUnavailable } from "../errors.js"
import { acceptsHtml, unavailableBody } from "../http/error-response.js"
import { jsonText, noStore } from "../http/response.js"
import { translatorForRequest } from "../pages/i18n.js"
import { unavailablePage } from "../pages/unavailable.js"
import type { AuthConfig } from "../types.js"
import type { RequestLike } from "./origin.js"

/** An answer for the integration to write as it is. */
export interface UnavailableAnswer {
  readonly status: 503
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * The answer to `request` while the storage cannot be reached: the unavailable page in the
 * visitor's language and the configuration's theme, whose "Try again" reloads the requested page,
 * or `{ error: "StorageUnavailable", message }`; `503`, `Retry-After`, never cached.
 */
export function unavailableAnswer(config: AuthConfig, request: RequestLike, error: StorageUnavailable): UnavailableAnswer {
  const retryAfter = String(error.retryAfter)
  if (!acceptsHtml(request.headers)) {
    return { status: 503, headers: { ...noStore, "Content-Type": "application/json", "Retry-After": retryAfter }, body: jsonText(unavailableBody(error)) }
  }
  const resolution = resolveConfig(config)
  const url = new URL(request.url)
  // A path, not a URL: the request's host is not written into the page. One leading slash: a
  // request for `//evil.example/x` must not make a link to another host.
  const retryUrl = `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}`
  const messages = resolution.ok ? resolution.config.messages : undefined
  const theme = resolution.ok ? resolution.config.theme : defaultTheme
  const answer = unavailablePage({ retryUrl, retryAfter: error.retryAfter, theme }, translatorForRequest(request, messages))
  return { status: 503, headers: answer.headers ?? {}, body: answer.body as string }
}
