/**
 * Serves a web-standard handler (`Auth()`, or a router around it) on a real HTTP server on
 * 127.0.0.1 and a random free port, for a browser to talk to.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"

export type FetchHandler = (request: Request) => Response | Promise<Response>

export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  close(): Promise<void>
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Required by Node's fetch for a streamed body; not in the DOM typings.
    ...(hasBody ? { duplex: "half" } : {}),
  })
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}

export async function serve(handler: FetchHandler): Promise<TestServer> {
  let origin = ""
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handler(toRequest(req, origin)))
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        // A handler that throws is a test failure: say so in the response and the test output.
        console.error("[@sesame/testing] handler threw:", error)
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" })
        res.end("handler threw")
      })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
