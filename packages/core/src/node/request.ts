/**
 * A Node.js request as a web `Request`, for the app's code that is handed one (`authorize`, a lazy
 * configuration, `sendVerificationRequest`, `clientIp`): made only when such code runs, never on
 * the session path.
 *
 * @module
 */
import type { NodeRequest } from "./index.js"

export function toWebRequest(req: NodeRequest, url: URL, body: Uint8Array | undefined): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not headers a `Request` may carry.
    if (value === undefined || name.startsWith(":")) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const method = req.method ?? "GET"
  const withBody = method !== "GET" && method !== "HEAD" && body !== undefined && body.byteLength > 0
  return new Request(url, { method, headers, ...(withBody ? { body: body as Uint8Array<ArrayBuffer> } : {}) })
}
