/**
 * The bridge every web-standard handler is served through over HTTP, and the bridge floor itself:
 * node:http request → web Request → handler → web Response → node response. GET only (no request
 * body), which is all the benchmark sends.
 */

/** @param {(request: Request) => Response | Promise<Response>} handler */
export function bridge(handler) {
  return async (req, res) => {
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    let response
    try {
      response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers }))
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error?.stack ?? error))
      return
    }
    const head = {}
    for (const [name, value] of response.headers) if (name !== "set-cookie") head[name] = value
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) head["set-cookie"] = cookies
    res.writeHead(response.status, head).end(Buffer.from(await response.arrayBuffer()))
  }
}
