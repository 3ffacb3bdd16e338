/**
 * The app's origin for a request, by the core's rules, for the URLs an integration builds.
 *
 * @module
 */
import { resolveConfig } from "../config/resolve.js"
import { requestOrigin } from "../http/context.js"
import type { AuthConfig } from "../types.js"

/** What is read of a request: its headers, and its URL as the last resort for the origin. */
export interface RequestLike {
  readonly headers: Headers
  readonly url: string
  /** The socket's address, for the limits per client (a `Request`'s is handed over with `setPeerAddress`). */
  readonly peer?: string | undefined
}

/**
 * The app's origin for a request, by the core's rules: `AUTH_URL` when set; with `trustHost`, the
 * `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto` values the nearest proxy set; else the `Host`
 * of a request for a loopback host. Null when the configuration does not resolve or refuses the
 * request (a foreign host without `AUTH_URL` or `trustHost`): the core's endpoints then answer with
 * the configuration error, and an integration must not build URLs on that host either.
 */
export function appOrigin(config: AuthConfig, request: RequestLike): string | null {
  const resolution = resolveConfig(config)
  if (!resolution.ok) return null
  const origin = requestOrigin(request.headers, new URL(request.url), resolution.config)
  return typeof origin === "string" ? origin : null
}
