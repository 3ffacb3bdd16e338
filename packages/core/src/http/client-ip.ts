/**
 * The client's IP address, for limits kept per client (rate limits, email link requests, sign-in
 * throttling) and for the security events (`security-events.ts`). The one place that decides it.
 *
 * A request does not say who sent it: its TCP peer is whoever connected, and a header any client
 * can set is believed only as far as the app says proxies it controls write it (`trustedProxy`):
 * - `{ hops: n }`: `n` proxies the app controls each append the address they saw to
 *   `X-Forwarded-For`, so the client is the `n`th entry from the end. Entries further left were
 *   written by the client itself and are never read.
 * - `{ header: "cf-connecting-ip" }`: the one proxy in front (Cloudflare, Fly.io, a load balancer)
 *   sets this header to the client's address, replacing whatever the client sent.
 * - `false`: the app faces clients directly: the TCP peer's address, which the integration hands
 *   over (the Node.js handler reads its socket; see {@link setPeerAddress}), so a rotated
 *   `X-Forwarded-For` changes nothing. Unless the peer is a private or loopback address and the
 *   request says a proxy forwarded it: then a proxy the app did not declare stands in front, every
 *   visitor would be that one address, and one of them could use up everyone's limits; the client
 *   is unknown instead (and the rate limits say so in the log).
 *
 * The default follows `trustHost` (`AUTH_TRUST_HOST`), the app's word that a proxy it controls sets
 * the `X-Forwarded-*` headers: one hop when it is said, the peer otherwise.
 *
 * @module
 */
import type { HeaderReader } from "./incoming.js"

/** Which proxies in front of the app say who the client is (see the module's description). */
export type TrustedProxy = { hops: number } | { header: string } | false

/** The client's address from a request's headers and its TCP peer (undefined when not known). */
export type ClientAddressRule = (headers: HeaderReader, peer: string | undefined) => string | null

/** The peer addresses that integrations handed over with the web requests they pass to the core. */
const peers = new WeakMap<Request, string>()

/**
 * Tells the core the TCP peer address of `request` (the socket's remote address), for the
 * client-address rule when no proxy is trusted. For integrations, whose framework knows it
 * (`event.getClientAddress()`, a Node.js socket): a web `Request` does not carry it.
 */
export function setPeerAddress(request: Request, address: string | null | undefined): void {
  if (address) peers.set(request, address)
}

/** The peer address an integration handed over with `request`, if any. */
export function peerAddressOf(request: Request): string | undefined {
  return peers.get(request)
}

/** The last `X-Forwarded-For` entry of `headers`: the address the nearest proxy saw. */
export function forwardedFor(headers: HeaderReader): string | null {
  return forwardedEntry(headers, 1)
}

/** The `hops`th `X-Forwarded-For` entry from the end; the first one when there are fewer. */
function forwardedEntry(headers: HeaderReader, hops: number): string | null {
  const entries = headers.get("x-forwarded-for")?.split(",")
  if (!entries) return null
  const entry = entries[Math.max(0, entries.length - hops)]?.trim()
  return entry || null
}

/** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`), which a dual-stack socket reports, as IPv4. */
function plain(address: string): string {
  return address.toLowerCase().startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address
}

/** A loopback, private or link-local address: where an undeclared proxy in front of the app sits. */
const privateAddress = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|::1$|f[cd][0-9a-f]{2}:|fe[89ab][0-9a-f]:)/i

/** Whether a proxy says it forwarded the request. */
const forwarded = (headers: HeaderReader) => headers.get("x-forwarded-for") !== null || headers.get("forwarded") !== null

/** The rule of `trusted` (see the module's description). */
export function clientAddressRule(trusted: TrustedProxy): ClientAddressRule {
  if (trusted === false) {
    return (headers, peer) => {
      if (!peer) return null
      const address = plain(peer)
      return privateAddress.test(address) && forwarded(headers) ? null : address
    }
  }
  if ("header" in trusted) {
    const name = trusted.header.toLowerCase()
    return (headers) => {
      const value = headers.get(name)?.split(",")[0]?.trim()
      return value ? plain(value) : null
    }
  }
  const { hops } = trusted
  return (headers) => {
    const entry = forwardedEntry(headers, hops)
    return entry ? plain(entry) : null
  }
}

/** The `trustedProxy` option checked (a `TypeError` naming the mistake); undefined when it is not set. */
export function checkTrustedProxy(value: unknown): TrustedProxy | undefined {
  if (value === undefined || value === false) return value
  const given = value as { hops?: unknown; header?: unknown }
  if (typeof value === "object" && value !== null && Object.keys(value).length === 1) {
    if (Number.isInteger(given.hops) && (given.hops as number) >= 1 && (given.hops as number) <= 16) return { hops: given.hops as number }
    // A list that the client starts is never one header's whole word: `{ hops }` reads it.
    if (typeof given.header === "string" && /^[a-z0-9-]{1,64}$/i.test(given.header) && !/^(?:x-forwarded-for|forwarded)$/i.test(given.header)) {
      return { header: given.header }
    }
  }
  throw new TypeError(
    '`trustedProxy` must be false, { hops: n } (1 to 16 proxies that append to X-Forwarded-For) or { header: "name" } (a header one proxy sets to the client\'s address, such as "cf-connecting-ip"; not X-Forwarded-For or Forwarded, whose first entries the client writes).',
  )
}

/** The default of `trustedProxy`: one hop when the app trusts its proxy's headers (`trustHost`), else none. */
export function defaultTrustedProxy(trustHost: boolean): TrustedProxy {
  return trustHost ? { hops: 1 } : false
}

/** The client's address for a web `Request` by `rule`, with the peer address its integration handed over. */
export function clientAddressOf(request: Request, rule: ClientAddressRule): string | null {
  return rule(request.headers, peerAddressOf(request))
}

/** How a flow finds the client's IP: the app's own rule, else the configuration's. */
export function clientIpRule(
  custom: ((request: Request) => string | null | undefined) | undefined,
  rule: ClientAddressRule,
): (request: Request) => string | null | undefined {
  return custom ?? ((request) => clientAddressOf(request, rule))
}
