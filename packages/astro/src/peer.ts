/**
 * The socket's address of an Astro request, which the core's limits per client read when no proxy
 * is trusted (`trustedProxy`).
 *
 * @module
 */
import type { AstroContext } from "./types.js"

/**
 * `context.clientAddress` (the Node adapter's socket address), or `undefined` where Astro cannot
 * tell it: reading it throws on a prerendered page and with an adapter that does not give it. A
 * proxy's header then says it (`trustedProxy`).
 */
export function peerAddress(context: AstroContext): string | undefined {
  try {
    return context.clientAddress || undefined
  } catch {
    return undefined
  }
}

/** The browser's request as the core's helpers read it: its headers, URL and socket's address. */
export function browserRequest(context: AstroContext): { headers: Headers; url: string; peer: string | undefined } {
  return { headers: context.request.headers, url: context.request.url, peer: peerAddress(context) }
}
