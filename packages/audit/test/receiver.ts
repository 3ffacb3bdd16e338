/**
 * A webhook receiver on 127.0.0.1 (node:http) that checks each request's Standard Webhooks
 * signature itself, with node:crypto rather than the module's code, and answers as told: `503` to
 * the first `failFirst` attempts of each message, `302` to `redirectTo`, else `204`.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface Attempt {
  id: string
  timestamp: string
  body: string
  verified: boolean
}

export async function receiver(secret: string, behaviour: { failFirst?: number; redirectTo?: string }) {
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const attempts: Attempt[] = []
  const accepted: Attempt[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const id = String(req.headers["webhook-id"] ?? "")
      const timestamp = String(req.headers["webhook-timestamp"] ?? "")
      const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest()
      const given = String(req.headers["webhook-signature"] ?? "")
        .split(" ")
        .filter((s) => s.startsWith("v1,"))
        .map((s) => Buffer.from(s.slice(3), "base64"))
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
      const verified = req.method === "POST" && req.headers["content-type"] === "application/json" && fresh && given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))
      const attempt = { id, timestamp, body, verified }
      attempts.push(attempt)
      if (behaviour.redirectTo) {
        res.writeHead(302, { location: behaviour.redirectTo }).end()
        return
      }
      const earlier = attempts.filter((a) => a.id === id).length
      if (!verified || earlier <= (behaviour.failFirst ?? 0)) {
        res.writeHead(503).end("try later")
        return
      }
      accepted.push(attempt)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/sesame`,
    attempts,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
