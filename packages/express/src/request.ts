/**
 * An Express request as the core's integration functions read it (`RequestLike`: headers and a
 * URL), made once per request.
 *
 * Policy: the core decides the app's origin, from `AUTH_URL`, or with `trustHost` from the
 * `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto` headers, or from a loopback `Host`. So the
 * request's headers are passed as they arrived, and nothing Express derived from them is: not
 * `req.protocol` or `req.hostname`, which follow Express's `trust proxy` setting, a second rule
 * the core does not know. The URL's scheme is the connection's own (TLS or not), as the core's
 * Node.js handler takes it. The URL's host is read by the core only when the `Host` header is
 * missing or malformed: it is unknown then, and the reserved name `unknown.invalid` says so,
 * never a loopback host the core would trust.
 *
 * @module
 */
import type { TLSSocket } from "node:tls"
import type { RequestLike } from "@sesame/core/integration"
import type { ExpressRequest } from "./types.js"

const requests = new WeakMap<ExpressRequest, RequestLike>()

/** `req` as the core reads it. */
export function requestOf(req: ExpressRequest): RequestLike {
  let request = requests.get(req)
  if (!request) {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      // HTTP/2's pseudo-headers (`:authority`) are no header a `Headers` may hold.
      if (value === undefined || name.startsWith(":")) continue
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
    }
    const scheme = (req.socket as Partial<TLSSocket> | null)?.encrypted ? "https" : "http"
    // An absolute-form target (`GET http://host/path`) names a host nobody vouched for: only a path is kept.
    const target = req.originalUrl ?? req.url ?? "/"
    request = { headers, url: `${scheme}://unknown.invalid${target.startsWith("/") ? target : "/"}`, peer: req.socket?.remoteAddress }
    requests.set(req, request)
  }
  return request
}
