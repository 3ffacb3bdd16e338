/**
 * Requests an integration makes to the core's own endpoints on behalf of the browser's request:
 * to the app's origin (by the core's rule) and base path, with the browser's headers and cookies
 * but not those of its body.
 *
 * @module
 */
import { resolveConfig } from "../config/resolve.js"
import { peerAddressOf, setPeerAddress } from "../http/client-ip.js"
import { markAppRead } from "../http/incoming.js"
import type { InternalResponse } from "../http/response.js"
import { Auth } from "../index.js"
import { raw } from "../symbols.js"
import type { AuthConfig } from "../types.js"
import { appOrigin, type RequestLike } from "./origin.js"

/**
 * Headers of the browser's request that must not reach the core's request: those of its body (a
 * server action's, a server function's, a form the app handles), and a client's wish for redirects
 * as JSON.
 */
const notForwarded = ["content-length", "content-type", "transfer-encoding", "x-auth-return-redirect"]

/** The browser's headers, without those of its body. */
export function forwardedHeaders(request: RequestLike): Headers {
  const headers = new Headers(request.headers)
  for (const name of notForwarded) headers.delete(name)
  return headers
}

/**
 * `<origin><basePath>` for `request`: the app's origin by the core's rule (the request's URL when
 * the core refuses it: the call then fails with the configuration error), and the base path.
 */
export function endpointsUrl(config: AuthConfig, request: RequestLike): string {
  const resolution = resolveConfig(config)
  // A configuration that does not resolve makes the call to the core throw its error.
  const basePath = resolution.ok ? resolution.config.basePath : resolution.basePath
  return `${appOrigin(config, request) ?? new URL(request.url).origin}${basePath}`
}

/**
 * `forwarded` with the peer address the integration handed over with the browser's `request`: a
 * call made for the browser counts as the browser's in its limits (`http/client-ip.ts`).
 */
export function withPeerOf(request: RequestLike, forwarded: Request): Request {
  setPeerAddress(forwarded, request instanceof Request ? peerAddressOf(request) : request.peer)
  return forwarded
}

const rawConfigs = new WeakMap<AuthConfig, AuthConfig & { raw: typeof raw }>()

/** `config` with `raw`, made once per object so that the core resolves it once. */
function rawOf(config: AuthConfig): AuthConfig & { raw: typeof raw } {
  let result = rawConfigs.get(config)
  if (!result) {
    result = { ...config, raw }
    rawConfigs.set(config, result)
  }
  return result
}

/** `GET <basePath>/<action>` with the browser's headers, answered raw; throws what the core throws. */
export function getFromCore(config: AuthConfig, request: RequestLike, action: string): Promise<InternalResponse> {
  const reader = rawOf(config)
  return Auth(markAppRead(new Request(`${endpointsUrl(reader, request)}/${action}`, { headers: forwardedHeaders(request) })), reader)
}
