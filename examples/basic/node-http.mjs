/**
 * Glue between Node's http module and web-standard Request/Response, for this example only.
 */
import { Readable } from "node:stream"

/** The web Request for a Node IncomingMessage. */
export function toWebRequest(req, origin) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
  })
}

/** Writes a web Response to a Node ServerResponse. */
export async function sendWebResponse(res, response) {
  const cookies = response.headers.getSetCookie()
  const headers = {}
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}
