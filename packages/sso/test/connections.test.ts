/**
 * Managing connections: an organization's owners and admins create, read, change and delete its
 * connections, through the server functions and the JSON endpoints. The attacks come first:
 * a member, an admin of another organization naming this one's connection by id (with their own
 * organization's id or this one's), someone signed out, a cross-site form; the client secret
 * never comes back; an issuer on a private network is refused unless the app allows it.
 */
import { isPrivateAddress } from "../src/network.js"
import { describe, expect, it } from "vitest"
import { clientSecret, origin, ssoWorld } from "./world.js"

async function acmeAndGlobex(options?: Parameters<typeof ssoWorld>[0]) {
  const w = ssoWorld(options)
  const ada = await w.user("ada@example.com")
  const bob = await w.user("bob@example.com")
  const cy = await w.user("cy@example.com")
  const gil = await w.user("gil@example.com")
  const acme = await w.organization(ada, "Acme")
  const globex = await w.organization(gil, "Globex")
  await w.join(ada, acme, bob, ["admin"])
  await w.join(ada, acme, cy, ["member"])
  return { w, ada, bob, cy, gil, acme, globex }
}

const oidc = { protocol: "oidc", name: "Acme IdP", issuer: "http://127.0.0.1:9/", clientId: "acme-app", clientSecret }

describe("connections", () => {
  it("are made and changed by the organization's owners and admins, and never show the client secret", async () => {
    const { bob, acme } = await acmeAndGlobex()
    const created = await bob.post("sso/connections/create", { organizationId: acme.id, ...oidc })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ organizationId: acme.id, protocol: "oidc", name: "Acme IdP", enabled: true, roles: ["member"], oidc: { issuer: "http://127.0.0.1:9/", clientId: "acme-app", hasClientSecret: true } })
    expect(JSON.stringify(created.body)).not.toContain(clientSecret)
    const id = created.body.id as string

    const renamed = await bob.post("sso/connections/update", { organizationId: acme.id, connectionId: id, name: "Acme Okta", roles: ["admin"] })
    expect(renamed.body).toMatchObject({ name: "Acme Okta", roles: ["admin"], oidc: { clientId: "acme-app", hasClientSecret: true } })
    const listed = await bob.get("sso/connections", { organizationId: acme.id })
    expect(listed.body.map((c: { id: string }) => c.id)).toEqual([id])
    expect(JSON.stringify(listed.body)).not.toContain(clientSecret)
    expect((await bob.post("sso/connections/delete", { organizationId: acme.id, connectionId: id })).status).toBe(204)
    expect((await bob.get("sso/connections", { organizationId: acme.id })).body).toEqual([])
  })

  it("are out of reach of a member, of another organization's admin, and of someone signed out", async () => {
    const { w, ada, cy, gil, acme, globex } = await acmeAndGlobex()
    const { id } = await ada.api("createConnection", acme.id, oidc)
    const before = await ada.api("getConnection", acme.id, id)

    // A member of Acme who may not update it.
    expect(await cy.post("sso/connections/create", { organizationId: acme.id, ...oidc })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect(await cy.get("sso/connections", { organizationId: acme.id })).toMatchObject({ status: 404 })
    expect(await cy.post("sso/connections/update", { organizationId: acme.id, connectionId: id, issuer: "https://evil.example" })).toMatchObject({ status: 404 })
    // Globex's owner, naming Acme's connection with Globex's id or Acme's.
    for (const organizationId of [globex.id, acme.id]) {
      expect(await gil.get("sso/connections/one", { organizationId, connectionId: id })).toMatchObject({ status: 404, body: { error: "NotFound" } })
      expect(await gil.post("sso/connections/update", { organizationId, connectionId: id, clientId: "stolen" })).toMatchObject({ status: 404 })
      expect(await gil.post("sso/connections/delete", { organizationId, connectionId: id })).toMatchObject({ status: 404 })
    }
    await expect(gil.api("updateConnection", globex.id, id, { enabled: false })).rejects.toMatchObject({ code: "NotFound" })
    // Signed out.
    const stranger = new w.Browser()
    expect(await stranger.get("sso/connections", { organizationId: acme.id })).toMatchObject({ status: 401, body: { error: "NotSignedIn" } })

    expect(await ada.api("getConnection", acme.id, id)).toEqual(before)
  })

  it("refuses a cross-site form and a POST without the CSRF token", async () => {
    const { ada, acme } = await acmeAndGlobex()
    const crossSite = await ada.send("sso/connections/create", {
      body: new URLSearchParams({ csrfToken: await ada.csrf(), organizationId: acme.id, ...oidc }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    })
    expect(crossSite.status).toBe(403)
    const noToken = await ada.send("sso/connections/create", { json: { organizationId: acme.id, ...oidc } })
    expect(noToken.status).toBeGreaterThanOrEqual(300)
    expect(await ada.api("listConnections", acme.id)).toEqual([])
  })

  it("checks what it is given: names, roles (never owner), booleans, URLs", async () => {
    const { ada, acme } = await acmeAndGlobex()
    const refused = async (fields: Record<string, unknown>) => (await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, ...fields })).body
    expect(await refused({ protocol: "ldap" })).toMatchObject({ error: "InvalidInput" })
    expect(await refused({ name: "" })).toMatchObject({ error: "InvalidInput" })
    expect(await refused({ roles: ["owner"] })).toMatchObject({ error: "InvalidInput", message: expect.stringMatching(/owner/) })
    expect(await refused({ enabled: "maybe" })).toMatchObject({ error: "InvalidInput" })
    expect(await refused({ issuer: "javascript:alert(1)" })).toMatchObject({ error: "InvalidInput" })
    expect(await refused({ issuer: "https://user:pass@idp.example" })).toMatchObject({ error: "InvalidInput" })
    expect(await refused({ clientSecret: { ne: null } })).toMatchObject({ error: "InvalidInput" })
    expect(await ada.api("listConnections", acme.id)).toEqual([])
  })
})

describe("an issuer on a private network (SSRF)", () => {
  it("is refused unless the app allows private networks: loopback, private ranges, link-local metadata, plain http", async () => {
    const { ada, acme } = await acmeAndGlobex({})
    for (const issuer of ["http://127.0.0.1:9", "https://127.0.0.1", "https://10.0.0.8", "https://169.254.169.254/latest", "https://[::1]", "https://localhost", "http://idp.example"]) {
      const answer = await ada.post("sso/connections/create", { organizationId: acme.id, ...oidc, issuer })
      expect(answer, issuer).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    }
    expect(await ada.api("listConnections", acme.id)).toEqual([])
  })

  it("tells private addresses from public ones", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPrivateAddress(address), address).toBe(false)
  })
})

describe("the redirect URI a connection reports", () => {
  it("is the core's callback of its provider, on the app's origin and base path", async () => {
    const { ada, acme } = await acmeAndGlobex()
    const info = await ada.api("createConnection", acme.id, oidc)
    expect(info.providerId).toBe(`sso-${info.id}`)
    expect(info.oidc.redirectUri).toBe(`${origin}/auth/callback/sso-${info.id}`)
  })
})
