/**
 * A Fastify request as the core's integration functions read it (`RequestLike`: headers, a URL and
 * the socket's address), made once per request.
 *
 * Policy: the core decides the app's origin, from `AUTH_URL`, or with `trustHost` from the
 * `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto` headers, or from a loopback `Host`; and the
 * client's address for its limits, from the socket or a proxy the configuration trusts
 * (`trustedProxy`). So the request's headers go to the core as they arrived, with the socket's own
 * address, and nothing Fastify derived from them: not `request.host`, `request.protocol` or
 * `request.ip`, which follow Fastify's `trustProxy` option, a second rule the core does not know.
 * The URL's scheme is the connection's own (TLS or not), as the core's Node.js handler takes it.
 * The URL's host is read by the core only when the `Host` header is missing or malformed: it is
 * unknown then, and the reserved name `unknown.invalid` says so, never a loopback host the core
 * would trust.
 *
 * @module
 */
import type { TLSSocket } from "node:tls"
import type { RequestLike } from "@sesame/core/integration"
import type { FastifyRequest } from "fastify"

const requests = new WeakMap<FastifyRequest, RequestLike>()

/** `request` as the core reads it. */
export function requestOf(request: FastifyRequest): RequestLike {
  let found = requests.get(request)
  if (!found) {
    const { raw } = request
    const headers = new Headers()
    for (const [name, value] of Object.entries(raw.headers)) {
      // HTTP/2's pseudo-headers (`:authority`) are no header a `Headers` may hold.
      if (value === undefined || name.startsWith(":")) continue
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
    }
    const scheme = (raw.socket as Partial<TLSSocket> | null)?.encrypted ? "https" : "http"
    // The target as the client sent it (Fastify keeps it in `raw.url`). An absolute-form target
    // (`GET http://host/path`) names a host nobody vouched for: only a path is kept.
    const target = raw.url ?? "/"
    found = { headers, url: `${scheme}://unknown.invalid${target.startsWith("/") ? target : "/"}`, peer: raw.socket?.remoteAddress }
    requests.set(request, found)
  }
  return found
}
