/**
 * The local mailbox's messages over loopback HTTP, for the app's /dev/mailbox page (the app runs
 * in another process). A random bearer token keeps other local users' programs out.
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"

export function startMailboxApi(mailbox) {
  const token = randomBytes(32).toString("base64url")
  const expected = Buffer.from(`Bearer ${token}`)
  const server = createServer((request, response) => {
    const given = Buffer.from(request.headers.authorization ?? "")
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      response.writeHead(401).end()
      return
    }
    if (request.method !== "GET" || request.url !== "/messages") {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(mailbox.messages()))
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      resolve({ url: `http://127.0.0.1:${port}`, token, close: () => new Promise((done) => server.close(() => done())) })
    })
  })
}
