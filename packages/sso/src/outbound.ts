/**
 * The `fetch` of the connections' OpenID Connect providers (`[customFetch]`): every request the
 * core makes to a tenant's IdP (discovery, token, userinfo, key set) goes through it. Checking the
 * issuer when it is saved is not enough: the discovery document it serves may name endpoints
 * inside the app's network, and a host's DNS answer may change after the check (rebinding). So
 * each connection is made over https to an address checked as it is connected to (the lookup
 * itself refuses private addresses), and redirects are not followed.
 *
 * With `allowPrivateNetworks`, the global `fetch` is used (an IdP on the company network; tests).
 *
 * @module
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { isPrivateAddress } from "./network.js"

/** A DNS lookup that answers only public addresses, and fails for a host with any other. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0)
    const list = addresses ?? []
    if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address))) {
      return callback(Object.assign(new Error(`sso: ${hostname} resolves into a private network; identity providers must be public.`), { code: "EPRIVATE" }), "", 0)
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

/** How long a request to an IdP may take. */
const timeoutMs = 10_000
/** The largest answer read from an IdP (discovery documents, key sets and tokens are small). */
const maxBytes = 1024 * 1024

/** `fetch` to public https addresses only (see the module comment). */
export const publicFetch = (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : input)
  if (url.protocol !== "https:") throw new TypeError("sso: identity providers are reached over https only.")
  // An address written in the URL is never looked up, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, "")
  if (isIP(literal) !== 0 && isPrivateAddress(literal)) throw new TypeError(`sso: ${url.hostname} is in a private network; identity providers must be public.`)
  const headers = new Headers(init.headers)
  const body = init.body === undefined || init.body === null ? undefined : typeof init.body === "string" ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : Buffer.from(await new Response(init.body).arrayBuffer())
  if (body !== undefined && !headers.has("content-type") && init.body instanceof URLSearchParams) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8")
  return new Promise<Response>((resolve, reject) => {
    const request = httpsRequest(url, { method: init.method ?? "GET", headers: Object.fromEntries(headers), lookup: publicLookup, timeout: timeoutMs, signal: init.signal ?? undefined }, (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) request.destroy(new Error("sso: the identity provider's answer is too large."))
        else chunks.push(chunk)
      })
      response.on("end", () => {
        const answer = new Headers()
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined) continue
          for (const one of Array.isArray(value) ? value : [value]) answer.append(name, one)
        }
        const status = response.statusCode ?? 502
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }))
      })
      response.on("error", reject)
    })
    request.on("timeout", () => request.destroy(new Error("sso: the identity provider did not answer in time.")))
    request.on("error", reject)
    request.end(body)
  })
}) as typeof fetch
