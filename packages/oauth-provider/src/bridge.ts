/**
 * A web `Request` (what Sesame hands a module's service) through oidc-provider's Node.js handler
 * and back as a web `Response`, with light-my-request's in-memory request and response: no socket,
 * no second server.
 *
 * What oidc-provider sees of the request is made here: the Host and scheme are the issuer's (any
 * `Host` or `X-Forwarded-*` the request carried is dropped), so no request can change a URL the
 * server names; the path is split at the issuer's path, which is where oidc-provider is mounted.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { inject } from "light-my-request"
import { signedInKey, type Server, type SignedIn } from "./server.js"

/** The largest body a request to the server may have: forms and JSON of a few fields. */
const maxBody = 64 * 1024

const dropped = new Set(["host", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "x-forwarded-port", "forwarded", "content-length", "connection"])

export async function throughServer(server: Server, request: Request, signedIn: SignedIn): Promise<Response> {
  const issuer = new URL(server.issuer)
  const url = new URL(request.url)
  const mount = issuer.pathname.replace(/\/$/, "")
  const rest = url.pathname.slice(mount.length) || "/"
  let payload: Buffer | undefined
  if (request.method !== "GET" && request.method !== "HEAD") {
    payload = Buffer.from(await request.arrayBuffer())
    if (payload.length > maxBody) return new Response(JSON.stringify({ error: "invalid_request", error_description: "request body too large" }), { status: 413, headers: { "content-type": "application/json" } })
  }
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    if (!dropped.has(name)) headers[name] = value
  })
  headers.host = issuer.host
  headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1)
  const answer = await inject(
    (req: IncomingMessage, res: ServerResponse) => {
      Object.assign(req, { originalUrl: `${mount}${rest}${url.search}`, baseUrl: mount, [signedInKey]: signedIn })
      return server.handler(req, res)
    },
    { method: request.method as "GET", url: `${rest}${url.search}`, headers, ...(payload ? { payload } : {}) },
  )
  const out = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || name === "content-length" || name === "transfer-encoding" || name === "connection") continue
    for (const one of Array.isArray(value) ? value : [String(value)]) out.append(name, one)
  }
  const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === "HEAD"
  return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: out })
}
