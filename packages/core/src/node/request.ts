/**
 * A Node.js request as the web's types hold it: as a `Request`, for the app's code that is handed
 * one (`authorize`, a lazy configuration, `sendVerificationRequest`, `clientIp`), made only when
 * such code runs, never on the session path; and as the `RequestLike` the integration functions
 * read, for the integrations on Node.js frameworks (Express, Fastify).
 *
 * @module
 */
import type { TLSSocket } from "node:tls"
import type { RequestLike } from "../integration/origin.js"
import type { NodeRequest } from "./index.js"

/** The request's headers as sent (several values of one name appended), without HTTP/2's pseudo-headers (`:path`), which no `Headers` may hold. */
function webHeaders(req: NodeRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}

export function toWebRequest(req: NodeRequest, url: URL, body: Uint8Array | undefined): Request {
  const headers = webHeaders(req)
  const method = req.method ?? "GET"
  const withBody = method !== "GET" && method !== "HEAD" && body !== undefined && body.byteLength > 0
  return new Request(url, { method, headers, ...(withBody ? { body: body as Uint8Array<ArrayBuffer> } : {}) })
}

/**
 * `req` as the core's integration functions read it (`readSession`, `signInFromServer`, …): its
 * headers as they arrived, the socket's address, and a URL of the connection's own scheme (TLS or
 * not) and the target the client sent (`originalUrl`, the path before a framework mounted the
 * route, else `url`). Nothing a framework derived from the headers under its own proxy setting
 * (Express's `trust proxy`, Fastify's `trustProxy`) is used: the core decides the origin and the
 * client by its own rules. The URL's host is read by the core only when the `Host` header is
 * missing or malformed: it is unknown then, and the reserved name `unknown.invalid` says so, never
 * a loopback host the core would trust. An absolute-form target (`GET http://host/path`) names a
 * host nobody vouched for: only a path is kept.
 */
export function requestLikeOf(req: NodeRequest): RequestLike {
  const scheme = (req.socket as Partial<TLSSocket> | null)?.encrypted ? "https" : "http"
  const target = req.originalUrl ?? req.url ?? "/"
  return { headers: webHeaders(req), url: `${scheme}://unknown.invalid${target.startsWith("/") ? target : "/"}`, peer: req.socket?.remoteAddress }
}
