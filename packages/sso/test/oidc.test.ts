/**
 * OpenID Connect connections end to end, with the dev IdP as Acme's identity provider: found from
 * the address's domain (home-realm discovery) or the organization's slug, signed in through the
 * core's callback, provisioned into Acme just in time. Beside each flow, the attack that must fail:
 * Acme's IdP speaking for an address outside Acme's proven domains, a connection of a disabled or
 * unknown id, an address without SSO.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { afterEach, describe, expect, it } from "vitest"
import { idpAnswer, oidcConnection, origin, proveDomain, ssoWorld, throughIdp, type World } from "./world.js"

let idps: DevIdp[] = []
afterEach(async () => {
  await Promise.all(idps.map((idp) => idp.close()))
  idps = []
})

/** Acme (owned by Ada) with acme.test proven and an OIDC connection; Globex (owned by Gil) with globex.test proven. */
async function acmeWithSso(world: World = ssoWorld()) {
  const w = world
  const ada = await w.user("ada@example.com")
  const gil = await w.user("gil@example.com")
  const acme = await w.organization(ada, "Acme")
  const globex = await w.organization(gil, "Globex")
  await proveDomain(w, acme.id, "acme.test")
  await proveDomain(w, globex.id, "globex.test")
  const { connection, idp } = await oidcConnection(ada, acme.id)
  idps.push(idp)
  return { w, ada, gil, acme, globex, connection, idp }
}

async function start(browser: InstanceType<World["Browser"]>, fields: Record<string, string>): Promise<Response> {
  return browser.send("sso/start", { json: { csrfToken: await browser.csrf(), callbackUrl: `${origin}/dashboard`, ...fields } })
}

async function membersOf(admin: { get(path: string, query: Record<string, string>): Promise<{ body: any }> }, organizationId: string): Promise<{ email: string; roles: string[] }[]> {
  const members = (await admin.get("organization/members", { organizationId })).body as { user: { email: string }; roles: string[] }[]
  return members.map((m) => ({ email: m.user.email, roles: m.roles })).sort((a, b) => a.email.localeCompare(b.email))
}

describe("an OpenID Connect connection", () => {
  it("signs in a person of a proven domain from their address, and makes them a member with the connection's roles", async () => {
    const { w, ada, acme, connection } = await acmeWithSso()
    const grace = new w.Browser()
    const page = await grace.send("sso")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('name="email"')

    const started = await start(grace, { email: "grace@acme.test" })
    const authorize = new URL(started.headers.get("location")!)
    expect(authorize.searchParams.get("login_hint")).toBe("grace@acme.test")
    expect(authorize.searchParams.get("client_id")).toBe("acme-app")
    expect(authorize.searchParams.get("redirect_uri")).toBe(connection.oidc!.redirectUri)
    expect(connection.oidc!.redirectUri).toBe(`${origin}/auth/callback/sso-${connection.id}`)

    const back = await throughIdp(grace, started)
    expect(back.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await grace.session()).user).toMatchObject({ email: "grace@acme.test", name: "Grace Hopper" })
    const stored = await w.adapter.getUserByEmail!("grace@acme.test")
    expect(stored?.emailVerified).toBeInstanceOf(Date)
    expect(await membersOf(ada, acme.id)).toEqual([
      { email: "ada@example.com", roles: ["owner"] },
      { email: "grace@acme.test", roles: ["member"] },
    ])
  })

  it("starts from the organization's slug too, and the next sign-in finds the same user and membership", async () => {
    const { w, ada, acme } = await acmeWithSso()
    for (let round = 0; round < 2; round++) {
      const grace = new w.Browser()
      const started = await grace.send("sso/start", { json: { csrfToken: await grace.csrf(), organization: acme.slug } })
      // No address given: the dev IdP signs in its first account, Grace.
      expect(new URL(started.headers.get("location")!).searchParams.get("login_hint")).toBeNull()
      await throughIdp(grace, started)
      expect((await grace.session()).user).toMatchObject({ email: "grace@acme.test" })
    }
    expect((await membersOf(ada, acme.id)).filter((m) => m.email === "grace@acme.test")).toHaveLength(1)
  })

  it("links to the existing user of an address at a proven domain", async () => {
    const { w, ada, acme, connection } = await acmeWithSso()
    const existing = await w.user("grace@acme.test")
    const browser = new w.Browser()
    await throughIdp(browser, await start(browser, { email: "grace@acme.test" }))
    expect((await browser.session()).user).toMatchObject({ email: "grace@acme.test" })
    expect(await w.adapter.getUserByAccount!({ provider: `sso-${connection.id}`, providerAccountId: "grace@acme.test" })).toMatchObject({ id: existing.id })
    expect((await membersOf(ada, acme.id)).map((m) => m.email)).toContain("grace@acme.test")
  })

  it("never takes over a user at another organization's domain: Acme's IdP speaking for dan@globex.test is refused", async () => {
    const { w, ada, gil, acme, globex, connection } = await acmeWithSso()
    const dan = await w.user("dan@globex.test")
    const attacker = new w.Browser()
    // Acme's admin controls Acme's IdP, which may assert any address: it signs "dan@globex.test" in.
    const started = await attacker.send("sso/start", { json: { csrfToken: await attacker.csrf(), organization: acme.slug } })
    const location = new URL(started.headers.get("location")!)
    const hinted = new URL(location)
    hinted.searchParams.set("login_hint", "dan@globex.test")
    const back = await throughIdp(attacker, new Response(null, { status: 302, headers: { location: hinted.href } }))
    const to = new URL(back.headers.get("location")!)
    expect(to.pathname).toBe("/auth/signin")
    expect(to.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await attacker.session()).toBeNull()
    expect(await w.adapter.getUserByAccount!({ provider: `sso-${connection.id}`, providerAccountId: "dan@globex.test" })).toBeNull()
    expect((await dan.session()).user.email).toBe("dan@globex.test")
    expect((await membersOf(ada, acme.id)).map((m) => m.email)).not.toContain("dan@globex.test")
    expect((await membersOf(gil, globex.id)).map((m) => m.email)).toEqual(["gil@example.com"])
  })

  it("does not vouch for an address the IdP says it has not checked, even at a proven domain", async () => {
    const { w } = await acmeWithSso()
    await w.user("linus@acme.test")
    const browser = new w.Browser()
    const back = await throughIdp(browser, await start(browser, { email: "linus@acme.test" }))
    expect(new URL(back.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
  })

  it("sends no one anywhere for an address or organization without a connection, and says so on its page", async () => {
    const { w, globex } = await acmeWithSso()
    const browser = new w.Browser()
    const attempts: Record<string, string>[] = [{ email: "someone@nowhere.test" }, { email: "dan@globex.test" }, { organization: globex.slug }, { organization: "no-such-org" }]
    for (const fields of attempts) {
      const answer = await start(browser, fields)
      expect(answer.status, JSON.stringify(fields)).toBe(404)
      expect(answer.headers.get("location")).toBeNull()
      expect(await answer.text()).toContain("No organization signs in this address with single sign-on")
    }
    const invalid = await start(browser, { email: "not an address" })
    expect(invalid.status).toBe(400)
  })

  it("stops signing in once disabled: no start, and its callback is a 404", async () => {
    const { w, ada, acme, connection } = await acmeWithSso()
    const grace = new w.Browser()
    const started = await start(grace, { email: "grace@acme.test" })
    await ada.api("updateConnection", acme.id, connection.id, { enabled: false })
    expect((await start(new w.Browser(), { email: "grace@acme.test" })).status).toBe(404)
    // A flow started before: its callback finds no provider.
    expect((await grace.send(await idpAnswer(started))).status).toBe(404)
    expect(await grace.session()).toBeNull()
  })
})
