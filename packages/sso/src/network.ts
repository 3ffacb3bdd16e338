/**
 * Where a connection may make Sesame's server send requests. An organization's admin is one
 * tenant among many, so the issuer they type must not turn the app's server into their proxy into
 * its own network (SSRF): its host must resolve to public addresses only, unless the app allows
 * private networks (an identity provider inside the company's network, or a test's).
 *
 * What is left: a host whose DNS answer changes after the check (rebinding) is checked again at
 * each save only; the app that needs more puts its outbound requests behind an egress proxy.
 *
 * @module
 */
import { lookup } from "node:dns/promises"
import { BlockList, isIP } from "node:net"
import { SsoError } from "./errors.js"

const privateRanges = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) privateRanges.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  // IPv4 addresses carried in IPv6 (IPv4-compatible, NAT64, 6to4): what they carry may be private.
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
] as const) privateRanges.addSubnet(network, prefix, "ipv6")

/** Whether `address` (an IP) is loopback, private, link-local, or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  // An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is that IPv4 address.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1]
  const plain = mapped ?? address
  // Written in hex (`::ffff:7f00:1`) it is harder to read; no identity provider needs it.
  if (!mapped && /^::ffff:/i.test(address)) return true
  const family = isIP(plain)
  if (family === 0) return true
  return privateRanges.check(plain, family === 4 ? "ipv4" : "ipv6")
}

/**
 * `value` as the URL of an identity provider's endpoint: https (http only for loopback hosts when
 * private networks are allowed), no credentials or fragment, and a host that resolves to public
 * addresses only unless `allowPrivateNetworks`. `field` names it in the refusal.
 */
export async function providerUrl(value: unknown, field: string, allowPrivateNetworks: boolean): Promise<URL> {
  let url: URL
  try {
    if (typeof value !== "string" || value.length > 2048 || value !== value.trim()) throw new Error()
    url = new URL(value)
  } catch {
    throw new SsoError("InvalidInput", `\`${field}\` must be a URL.`)
  }
  if (url.username || url.password || url.hash) throw new SsoError("InvalidInput", `\`${field}\` must not carry credentials or a fragment.`)
  const loopbackHttp = url.protocol === "http:" && allowPrivateNetworks && (url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]")
  if (url.protocol !== "https:" && !loopbackHttp) throw new SsoError("InvalidInput", `\`${field}\` must be an https URL.`)
  if (allowPrivateNetworks) return url
  const host = url.hostname.replace(/^\[|\]$/g, "")
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)
  } catch {
    throw new SsoError("InvalidInput", `\`${field}\`: the host ${JSON.stringify(url.hostname)} does not resolve.`)
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw new SsoError("InvalidInput", `\`${field}\` points into a private network; only public identity providers can be connected.`)
  }
  return url
}
