/**
 * Review: the core's machine-to-machine services (`SesameModule.services`), as the SSO module's
 * SCIM part would use them: a probe module beside SSO serves `probe/scim/v2` and records what it
 * gets. A browser's session must never reach it, and its path must not swallow or be reached
 * through the module's cookie endpoints. Each test passes when the attack fails.
 */
import type { SesameModule } from "@sesame/core"
import { sso } from "@sesame/sso"
import { describe, expect, it } from "vitest"
import { makeWorld, origin } from "../../../organizations/test/world.js"

function probeWorld() {
  const seen: { cookie: string | null; method: string; path: string }[] = []
  const probe: SesameModule = {
    id: "probe",
    routes: {
      "GET probe/connections": { run: async (r) => ({ body: { route: true, user: (await r.user())?.email ?? null } }) },
      "POST probe/connections": { run: async (r) => ({ body: { route: true, user: (await r.user())?.email ?? null } }) },
    },
    services: {
      "probe/scim/v2": {
        async handle(request, context) {
          seen.push({ cookie: request.headers.get("cookie"), method: request.method, path: context.path })
          return new Response(JSON.stringify({ service: true }), {
            headers: { "content-type": "application/json", "set-cookie": "sesame.session-token=planted; Path=/" },
          })
        },
      },
    },
  }
  const w = makeWorld({ plugins: (orgs) => [sso({ organizations: orgs, allowPrivateNetworks: true }), probe] })
  return { w, seen }
}

describe("a module's service", () => {
  it("never gets the browser's cookies, whatever the method, and sets none", async () => {
    const { w, seen } = probeWorld()
    const ada = await w.user("ada@example.com")
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const answer = await ada.send("probe/scim/v2/Users", { method, ...(method === "GET" || method === "OPTIONS" ? {} : { body: "{}" }), headers: { "content-type": "application/scim+json", Cookie: ada.jar.header() } })
      expect(answer.headers.getSetCookie(), method).toEqual([])
    }
    expect(seen.length).toBe(6)
    expect(seen.every((s) => s.cookie === null)).toBe(true)
    expect((await ada.session()).user.email).toBe("ada@example.com")
  })

  it("is reached only under its exact prefix: no case, encoded-slash or prefix-extension tricks", async () => {
    const { w, seen } = probeWorld()
    const ada = await w.user("ada@example.com")
    for (const path of ["probe/scim/v2x/Users", "probe/SCIM/v2/Users", "probe/scim%2Fv2/Users", "probe/scim/v2%2F..%2F..%2Fconnections"]) {
      const answer = await ada.send(path)
      const text = await answer.text()
      expect(text, path).not.toContain('"service":true')
    }
    expect(seen).toEqual([])
  })

  it("dot segments resolve before routing: `scim/v2/../../connections` is the cookie endpoint (same as asking it directly), and `connections/../scim/v2` the service without cookies", async () => {
    const { w, seen } = probeWorld()
    const ada = await w.user("ada@example.com")
    const viaDots = await ada.send("probe/scim/v2/../../connections")
    expect(await viaDots.json()).toMatchObject({ route: true })
    const intoService = await ada.send("probe/connections/../scim/v2/Users")
    expect(await intoService.json()).toMatchObject({ service: true })
    expect(seen.at(-1)?.cookie).toBeNull()
    // %2e%2e is a dot segment to the URL parser as well.
    const encoded = await ada.send("probe/connections/%2e%2e/scim/v2/Users")
    expect(encoded.headers.getSetCookie()).toEqual([])
  })

  it("method confusion: a cookie endpoint answers only its own methods; PUT/DELETE do not run a POST endpoint without CSRF", async () => {
    const { w } = probeWorld()
    const ada = await w.user("ada@example.com")
    const acme = await w.organization(ada, "Acme")
    const created = await ada.post("sso/connections/create", { organizationId: acme.id, protocol: "oidc", name: "x", issuer: "http://127.0.0.1:9", clientId: "a", clientSecret: "s" })
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const answer = await ada.send("sso/connections/delete", { method, body: JSON.stringify({ organizationId: acme.id, connectionId: created.body.id }), headers: { "content-type": "application/json", origin } })
      expect(answer.status, method).toBeGreaterThanOrEqual(400)
    }
    // HEAD / a GET to a POST endpoint changes nothing either.
    await ada.send("sso/connections/delete", { method: "GET", query: { organizationId: acme.id, connectionId: created.body.id } })
    expect(await ada.api("listConnections", acme.id)).toHaveLength(1)
  })
})
