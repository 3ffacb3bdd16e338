/**
 * Runs a test's request through the Node.js handler (`toNodeHandler` from `@sesame/core/node`)
 * instead of `Auth()`: a real `node:http` server per configuration on a loopback port, reached over
 * HTTP with the request's own `Host`, so the same endpoint tests check both handlers. An `https:`
 * URL goes to a second server whose sockets say they are encrypted, as a TLS server's do.
 * `send()` in helpers.ts uses it when `SESAME_TEST_HANDLER=node` (the `node-handler` project of
 * vitest.config.ts).
 */
import { Agent, createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import type { AuthConfig } from "@sesame/core"
import { toNodeHandler } from "@sesame/core/node"

const agent = new Agent({ keepAlive: true })
const servers = new WeakMap<AuthConfig, Map<"http" | "https", Promise<number>>>()

function listen(config: AuthConfig, encrypted: boolean): Promise<number> {
  const handler = toNodeHandler(config)
  const server: Server = createServer((req, res) => void handler(req, res))
  if (encrypted) server.on("connection", (socket: Socket) => Object.assign(socket, { encrypted: true }))
  server.unref()
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))
}

function portFor(config: AuthConfig, scheme: "http" | "https"): Promise<number> {
  let byScheme = servers.get(config)
  if (!byScheme) servers.set(config, (byScheme = new Map()))
  let port = byScheme.get(scheme)
  if (!port) byScheme.set(scheme, (port = listen(config, scheme === "https")))
  return port
}

/** `request` answered by the Node.js handler of `config`, as a web `Response`. */
export async function throughNodeHandler(config: AuthConfig, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const port = await portFor(config, url.protocol === "https:" ? "https" : "http")
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  // The Host the test set (a forged one, say), else the URL's, as a browser sends it.
  const headers: [string, string][] = [["host", request.headers.get("host") ?? url.host]]
  for (const [name, value] of request.headers) if (name !== "host") headers.push([name, value])
  if (body) headers.push(["content-length", String(body.byteLength)])
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { agent, host: "127.0.0.1", port, method: request.method, path: `${url.pathname}${url.search}`, headers: headers.flat() },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("error", reject)
        incoming.on("end", () => {
          const responseHeaders = new Headers()
          const raw = incoming.rawHeaders
          for (let i = 0; i < raw.length; i += 2) {
            const name = raw[i]!.toLowerCase()
            // The transport's own headers, which `Auth()`'s `Response` does not have.
            if (name === "connection" || name === "keep-alive" || name === "date" || name === "transfer-encoding" || name === "content-length") continue
            responseHeaders.append(raw[i]!, raw[i + 1]!)
          }
          const status = incoming.statusCode ?? 500
          const empty = status === 204 || status === 304 || request.method === "HEAD"
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: responseHeaders }))
        })
      },
    )
    outgoing.on("error", reject)
    outgoing.end(body)
  })
}
