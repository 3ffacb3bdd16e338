/**
 * The request of an h3 event as the core reads it: its headers, its URL, and the socket's address
 * for the limits per client (`trustedProxy` decides whether a proxy's header says it instead).
 *
 * @module
 */
import { setPeerAddress } from "@sesame/core/integration"
import { getRequestIP, getRequestURL, getRequestWebStream } from "h3"
import type { Event } from "./types.js"

/** The socket's address, or `undefined` where the runtime gives none (a serverless preset). */
function peerOf(event: Event): string | undefined {
  try {
    return getRequestIP(event) || undefined
  } catch {
    return undefined
  }
}

/**
 * The request's URL as the connection gave it: h3 would take `X-Forwarded-Proto` on trust; the
 * core decides itself which forwarded headers it trusts (`trustHost`, `AUTH_URL`), from the headers.
 */
function urlOf(event: Event): URL {
  return getRequestURL(event, { xForwardedHost: false, xForwardedProto: false })
}

/** The browser's request as the core's helpers read it, without its body. */
export function requestLike(event: Event): { headers: Headers; url: string; peer: string | undefined } {
  return { headers: event.headers, url: urlOf(event).href, peer: peerOf(event) }
}

/** The whole web `Request` of the event (its body too), with the socket's address for the core. */
export function webRequest(event: Event): Request {
  const method = event.method.toUpperCase()
  const body = method === "GET" || method === "HEAD" ? undefined : getRequestWebStream(event)
  const request = new Request(urlOf(event), { method, headers: event.headers, body, duplex: "half" } as RequestInit)
  setPeerAddress(request, peerOf(event))
  return request
}
