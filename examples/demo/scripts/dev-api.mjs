/**
 * The launcher's development services over loopback HTTP, for the app's /dev pages (the app runs
 * in another process): the local mailbox's messages (`/mailbox/messages`) and the local DNS
 * server's records (`/dns/records`, read and published). A random bearer token keeps other local
 * users' programs out.
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"

/** A JSON body of at most 4 KiB, or null. */
async function jsonBody(request) {
  let text = ""
  for await (const chunk of request) {
    text += chunk
    if (text.length > 4096) return null
  }
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * `routes`: `"GET /mailbox/messages"` and the like, each answering JSON from the request's JSON
 * body. A TypeError it throws (a record the DNS server refuses) is a 400 with its message.
 */
export function startDevApi(routes) {
  const token = randomBytes(32).toString("base64url")
  const expected = Buffer.from(`Bearer ${token}`)
  const server = createServer(async (request, response) => {
    const given = Buffer.from(request.headers.authorization ?? "")
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      response.writeHead(401).end()
      return
    }
    const route = routes[`${request.method} ${request.url}`]
    if (!route) {
      response.writeHead(404).end()
      return
    }
    try {
      const body = request.method === "POST" ? await jsonBody(request) : undefined
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(await route(body)))
    } catch (error) {
      const refused = error instanceof TypeError
      if (!refused) console.error(error)
      response.writeHead(refused ? 400 : 500, { "content-type": "application/json" }).end(JSON.stringify({ error: refused ? error.message : "failed" }))
    }
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      resolve({ url: `http://127.0.0.1:${port}`, token, close: () => new Promise((done) => server.close(() => done())) })
    })
  })
}
