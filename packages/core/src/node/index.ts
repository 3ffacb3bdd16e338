/**
 * `@sesame/core/node`: the endpoints as a Node.js request listener, for `node:http` and the
 * frameworks built on it (Express, Fastify's `middie`, Koa through its `req`/`res`, Polka…).
 *
 * It does what `Auth()` does, endpoint for endpoint (the same dispatcher, checks and answers), but
 * reads the `IncomingMessage` and writes the `ServerResponse` directly: no web `Request`, `Headers`
 * or `Response` is built on the way, which is most of what a session check costs on Node. A web
 * `Request` is made only when the app's own code is handed one (`authorize`, a lazy
 * configuration, `sendVerificationRequest`, `clientIp`).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { toNodeHandler } from "@sesame/core/node"
 *
 * const auth = toNodeHandler(config)
 * createServer((req, res) => {
 *   if (req.url?.startsWith("/auth/")) return auth(req, res)
 *   res.end("the app")
 * }).listen(3000)
 * ```
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { handle } from "../actions/handle.js"
import { BadRequest } from "../errors.js"
import { badRequestResponse, configurationJson } from "../http/error-response.js"
import { setPeerAddress } from "../http/client-ip.js"
import type { HeaderReader, Incoming } from "../http/incoming.js"
import { envelope, type InternalResponse, type ResponseOptions } from "../http/response.js"
import { printError } from "../logger.js"
import type { AuthConfig, LazyAuthConfig } from "../types.js"
import { readNodeBody, unreadBodies } from "./body.js"
import { toWebRequest } from "./request.js"

export { requestLikeOf } from "./request.js"
export { privateWhenSent } from "./private.js"

/** A Node.js request as frameworks hand it over: Express adds `originalUrl` (the path before mounting) and may have parsed `body`. */
export type NodeRequest = IncomingMessage & { originalUrl?: string; body?: unknown }

/**
 * A listener for `node:http` (`createServer(handler)`), or a middleware: given `next`, a request
 * outside the base path is passed on to it instead of refused (`400`, as `Auth()` does).
 */
export type NodeHandler = (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>

/**
 * The path and query of a request target: as sent when it is a path; an absolute-form target's
 * own (its host is not trusted, the Host header is); null for anything else (`*`).
 */
function pathOf(target: string): string | null {
  if (target.startsWith("/")) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return null
  }
}

/** `req` as the handler reads it; null when it names no host or path to build its URL on. */
function incomingOf(req: NodeRequest): Incoming | null {
  const protocol = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http"
  const host = req.headers.host ?? req.headers[":authority"]
  if (typeof host !== "string" || host === "") return null
  const path = pathOf(req.originalUrl ?? req.url ?? "/")
  if (path === null) return null
  let url: URL
  try {
    // The host, then the path as sent: a target starting with `//` stays a path, as the
    // frameworks in front see it, instead of naming another host.
    url = new URL(`${protocol}://${host}${path}`)
  } catch {
    return null
  }
  const headers: HeaderReader = {
    get(name) {
      // HTTP/2's `:authority` is not read as `host`: the URL is built on it, and the origin falls back on the URL's.
      const value = req.headers[name.toLowerCase()]
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value
    },
  }
  let body: Promise<Uint8Array> | undefined
  // The bytes once read, for a `Request` made after (a lazy configuration runs before: it gets none).
  let bytes: Uint8Array | undefined
  let request: Request | undefined
  const peer = req.socket?.remoteAddress
  return {
    method: req.method ?? "GET",
    url,
    headers,
    peer,
    body: () => (body ??= readNodeBody(req, headers).then((read) => (bytes = read))),
    request: () => {
      if (request) return request
      request = toWebRequest(req, url, bytes)
      // The app's `clientIp` rules and callbacks read the peer of the request they are handed.
      setPeerAddress(request, peer)
      return request
    },
  }
}

/** Writes what `internal` is on the wire to `res`. */
function send(req: NodeRequest, res: ServerResponse, internal: InternalResponse, options: ResponseOptions): void {
  const { status, headers, body } = envelope(internal, options)
  // Said up front, so that Node writes the answer as one piece rather than chunked.
  if (body !== null) headers.push(["Content-Length", String(Buffer.byteLength(body))])
  else if (!options.head && status !== 304) headers.push(["Content-Length", "0"])
  if (unreadBodies.has(req)) {
    // The rest of a body over the limit is not read: the connection ends with the answer.
    res.setHeader("Connection", "close")
    res.once("finish", () => req.destroy())
  }
  if (res.getHeaderNames().length === 0) {
    res.writeHead(status, headers.flat())
  } else {
    // A middleware set headers before: ours replace its same-named ones, except the cookies, which add up.
    for (const [name, value] of headers) {
      if (name === "Set-Cookie") res.appendHeader(name, value)
      else res.setHeader(name, value)
    }
    res.writeHead(status)
  }
  res.end(body ?? undefined)
}

/**
 * The endpoints of `config` as a Node.js request listener (or middleware). The configuration is
 * resolved once, on the first request, like `Auth()`'s. The `raw` option does not apply here.
 */
export function toNodeHandler(config: AuthConfig | LazyAuthConfig): NodeHandler {
  return async (req, res, next) => {
    try {
      const incoming = incomingOf(req)
      if (!incoming) {
        send(req, res, badRequestResponse(new BadRequest("The request names no host (Host header) or no path.")), { returnRedirect: false, head: req.method === "HEAD" })
        return
      }
      const handled = await handle(incoming, config)
      if (!handled.ours && next) return next()
      send(req, res, handled.internal, handled.options)
    } catch (error) {
      // `handle` answers every failure itself; this is a `raw` configuration's error, or a broken socket.
      printError(error instanceof Error ? error : new Error(String(error)))
      if (res.headersSent) res.destroy()
      else send(req, res, configurationJson(), { returnRedirect: false, head: false })
    }
  }
}
