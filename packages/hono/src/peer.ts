/**
 * The socket's address of a Hono request, which the core's limits per client read when no proxy is
 * trusted (`trustedProxy`).
 *
 * @module
 */
import type { Context } from "hono"

/**
 * The socket's address, for the limits per client when no proxy is trusted: Node.js
 * (`@hono/node-server` hands the `IncomingMessage` over as `c.env.incoming`) and Bun (the server,
 * as `c.env`, answers `requestIP`). Elsewhere unknown: a proxy's header then says it (`trustedProxy`).
 */
export function peerAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; requestIP?: (request: Request) => { address?: string } | null } | undefined
  try {
    return env?.incoming?.socket?.remoteAddress ?? env?.requestIP?.(c.req.raw)?.address ?? undefined
  } catch {
    return undefined
  }
}

