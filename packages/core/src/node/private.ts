/**
 * Keeping a Node.js response that carries a visitor's session cookies out of shared caches, for the
 * integrations on Node.js frameworks (Express, Fastify).
 *
 * @module
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http"

const privateNoStore = "private, no-store"
const privateResponses = new WeakSet<ServerResponse>()

/**
 * Makes `res` say `Cache-Control: private, no-store` as its head is written, in place of what a
 * handler set (a static file's `public, max-age=86400`): a session read added the visitor's cookies
 * to it, and no shared cache may keep one visitor's session cookie for the next. At head time,
 * because the handlers after the session read set their own value later; in both the response's
 * headers and those handed to `writeHead(status, [message,] headers)` (Fastify's way), which win
 * over them. Idempotent.
 */
export function privateWhenSent(res: ServerResponse): void {
  if (privateResponses.has(res)) return
  privateResponses.add(res)
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
  res.writeHead = ((...args: unknown[]) => {
    res.setHeader("Cache-Control", privateNoStore)
    const headers = args.find((arg, index) => index > 0 && typeof arg === "object" && arg !== null && !Array.isArray(arg)) as OutgoingHttpHeaders | undefined
    if (headers) for (const name of Object.keys(headers)) if (name.toLowerCase() === "cache-control") headers[name] = privateNoStore
    return writeHead(...args)
  }) as ServerResponse["writeHead"]
}
