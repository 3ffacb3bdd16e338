/**
 * Review: the SSRF guard on OIDC issuers (network.ts), with private networks not allowed. DNS is
 * mocked (names of this test resolve to the addresses it says) and the "public" issuer is served
 * by a stub in front of `fetch`; a server on 127.0.0.1 stands for a service inside the app's network
 * and records what reaches it. Each test passes when the attack fails.
 */
import { customFetch } from "@sesame/core"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { isPrivateAddress } from "../../src/network.js"
import { clientSecret, origin } from "../world.js"
import { twoOrgs } from "./helpers.js"

vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>()
  const table: Record<string, string> = { "idp.attacker.example": "93.184.216.34", "redirector.attacker.example": "93.184.216.35", "internal.attacker.example": "10.0.0.5" }
  const lookup = async (host: string, options?: unknown) => {
    const address = table[host]
    if (!address) return real.lookup(host, options as never)
    return (options as { all?: boolean })?.all ? [{ address, family: 4 }] : { address, family: 4 }
  }
  return { ...real, lookup, default: { ...real, lookup } }
})

let internal: Server
let internalUrl: string
const hits: string[] = []
const realFetch = globalThis.fetch

beforeAll(async () => {
  internal = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_request"}')
  })
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve))
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`

  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.hostname === "idp.attacker.example") {
      if (url.pathname === "/.well-known/openid-configuration") {
        return Response.json({
          issuer: "https://idp.attacker.example",
          authorization_endpoint: "https://idp.attacker.example/authorize",
          // The attacker's public issuer names endpoints inside the app's network.
          token_endpoint: `${internalUrl}/internal/admin/token`,
          userinfo_endpoint: `${internalUrl}/internal/admin/userinfo`,
          jwks_uri: `${internalUrl}/internal/admin/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        })
      }
      return new Response("not found", { status: 404 })
    }
    if (url.hostname === "redirector.attacker.example") {
      const answer = new Response(null, { status: 302, headers: { location: `${internalUrl}/internal/redirected` } })
      // Follows only when the caller asked fetch to.
      if (init?.redirect === "manual") return answer
      return realFetch(`${internalUrl}/internal/redirected`, init)
    }
    return realFetch(input, init)
  })
})

afterAll(async () => {
  vi.restoreAllMocks()
  await new Promise((resolve) => internal.close(resolve))
})

const oidc = { protocol: "oidc", name: "IdP", clientId: "app", clientSecret }

describe("the SSRF guard on issuers", () => {
  it("refuses a name that resolves to a private address (control: the DNS mock is in effect)", async () => {
    const { ada, acme } = await twoOrgs({})
    const refused = await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer: "https://internal.attacker.example" })
    expect(refused).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    const accepted = await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer: "https://idp.attacker.example" })
    expect(accepted.status).toBe(200)
  })

  it("refuses the usual spellings of loopback and private addresses", async () => {
    const { ada, acme } = await twoOrgs({})
    for (const issuer of ["https://0x7f.1", "https://2130706433", "https://0177.0.0.1", "https://127.1", "https://[::ffff:127.0.0.1]", "https://[::ffff:a9fe:a9fe]", "https://[0:0:0:0:0:ffff:7f00:1]", "https://0.0.0.0", "https://[::]", "https://[fd00::1]", "https://[fe80::1%25eth0]", "https://localhost.", "https://169.254.169.254."]) {
      const answer = await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer })
      expect(answer.status, issuer).toBe(400)
    }
  })

  it("does not follow a redirect during discovery into the app's network", async () => {
    const { w, ada, acme } = await twoOrgs({})
    const created = await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer: "https://redirector.attacker.example" })
    expect(created.status).toBe(200)
    hits.length = 0
    const browser = new w.Browser()
    const started = await browser.send("sso/start", { json: { csrfToken: await browser.csrf(), organization: acme.slug } })
    expect(started.headers.get("location") ?? "").not.toContain("127.0.0.1")
    expect(hits).toEqual([])
  })

  // The issuer's host is checked when saved, but its discovery document names the token,
  // userinfo and key-set endpoints, and a host's DNS answer may change after the check. So every
  // request to a connection's IdP goes through `publicFetch` (src/outbound.ts): https only, an
  // address in the URL checked, and a name's addresses checked by the lookup of the connection
  // itself. (The stub of `fetch` above plays the attacker's IdP; `publicFetch` does not use `fetch`.)
  it("a connection's provider reaches its IdP through a fetch that refuses the app's network", async () => {
    const { connectionProviders } = await import("../../src/providers.js")
    const { publicFetch } = await import("../../src/outbound.js")
    const { w, acme } = await twoOrgs({})
    const admin = await w.user("mallory@example.com")
    const created = await admin.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer: "https://idp.attacker.example" })
    void created
    const org = await w.organization(admin, "Mallory Inc")
    const made = await admin.post("sso/connections/create", { organizationId: org.id, ...oidc, issuer: "https://idp.attacker.example" })
    expect(made.status).toBe(200)
    // The module's context as the core makes it; the client secret is only carried here, so a sealing that opens anything will do.
    const context = { store: w.adapter.store, logger: { debug() {}, error() {} }, sealing: { seal: async (_: string, value: string) => value, open: async (_: string, value: string) => ({ value, rotated: false }) } }
    const settings = await connectionProviders(false).find(made.body.providerId, context)
    expect(settings?.[customFetch]).toBe(publicFetch)
    expect((await connectionProviders(true).find(made.body.providerId, context))?.[customFetch]).toBeUndefined()
    // What a discovery document may name, inside the app's network: refused before any byte is sent.
    const port = Number(new URL(internalUrl).port)
    hits.length = 0
    for (const target of [`https://127.0.0.1:${port}/internal/admin/token`, `https://localhost:${port}/internal`, `https://[::1]:${port}/x`, `http://idp.attacker.example/token`, `https://10.0.0.5/x`]) {
      await expect(publicFetch(target, { method: "POST", body: new URLSearchParams({ code: "x" }) }), target).rejects.toThrow()
    }
    expect(hits, "requests that reached the internal service").toEqual([])
    void origin
  })
})

describe("isPrivateAddress, IPv6 forms that reach IPv4", () => {
  // FINDING (low): IPv6 literals that carry an IPv4 address in other forms than ::ffff: pass the
  // guard: NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), IPv4-compatible (::a.b.c.d).
  // On a network with NAT64 (IPv6-only clouds) 64:ff9b::a00:5 is 10.0.0.5. Fix: extract the
  // embedded IPv4 address of these prefixes and check it, or refuse them.
  it("treats NAT64, 6to4 and IPv4-compatible forms of private IPv4 addresses as private", () => {
    for (const address of ["64:ff9b::a9fe:a9fe", "64:ff9b::a00:5", "64:ff9b:1::a00:5", "2002:a00:5::1", "2002:7f00:1::1", "::a00:5", "::7f00:1"]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
  })
})
