/**
 * Organizations through the endpoints and server functions: what a user does with their own
 * organizations, members and roles, each rule beside the attack that tries to walk around it.
 */
import { describe, expect, it, vi, afterEach } from "vitest"
import { decodeJwt } from "jose"
import { acmeWithStaff, makeWorld } from "./world.js"

afterEach(() => vi.useRealTimers())

describe("organizations", () => {
  it("a user creates one and is its owner; it is listed, read by id or slug, and named in events", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const created = await ada.post("organization/create", { name: "Acme Café", logo: "https://cdn.example.com/acme.png", metadata: { plan: "pro" } })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ name: "Acme Café", slug: "acme-cafe", logo: "https://cdn.example.com/acme.png", metadata: { plan: "pro" }, roles: ["owner"] })
    expect((await ada.get("organization/list")).body).toEqual([expect.objectContaining({ id: created.body.id, roles: ["owner"] })])
    expect((await ada.get("organization/get", { slug: "acme-cafe" })).body).toMatchObject({ id: created.body.id })
    expect((await ada.get("organization/get", { organizationId: created.body.id })).body).toMatchObject({ slug: "acme-cafe" })
    expect(w.events).toEqual([{ type: "organization.created", organizationId: created.body.id, actorId: ada.id }])
  })

  it("a slug made from the name gets a suffix when taken; a slug asked for that is taken is refused", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    await w.organization(ada, "Acme")
    const second = await ada.post("organization/create", { name: "Acme" })
    expect(second.body.slug).toMatch(/^acme-[0-9a-f]{6}$/)
    expect(await ada.post("organization/create", { name: "Other", slug: "acme" })).toMatchObject({ status: 409, body: { error: "SlugTaken" } })
  })

  it("bad input is a 400 that names the field; a visitor gets 401; allowCreate: false refuses the endpoint", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    for (const bad of [{}, { name: "" }, { name: { $ne: null } }, { name: "x".repeat(101) }, { name: "A", slug: "Not A Slug" }, { name: "A", logo: "javascript:alert(1)" }, { name: "A", metadata: [1] }]) {
      expect(await ada.post("organization/create", bad), JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    }
    const visitor = new w.Browser()
    expect(await visitor.post("organization/create", { name: "A" })).toMatchObject({ status: 401, body: { error: "NotSignedIn" } })
    const closed = makeWorld({ allowCreate: false })
    const bob = await closed.user("bob@example.com")
    expect(await bob.post("organization/create", { name: "A" })).toMatchObject({ status: 403, body: { error: "CreateNotAllowed" } })
  })

  it("a POST without the CSRF token, or from another site, is refused", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const noToken = await ada.send("organization/create", { json: { name: "A" } })
    expect(noToken.status).toBe(302)
    expect(noToken.headers.get("location")).toContain("error=MissingCSRF")
    const token = await ada.csrf()
    const crossSite = await ada.send("organization/create", { json: { csrfToken: token, name: "A" }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(crossSite.status).toBe(403)
    expect((await ada.get("organization/list")).body).toEqual([])
  })

  it("an admin renames it; a member cannot; a slug change to a taken one is refused", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const cy = await w.user("cy@example.com")
    const org = await w.organization(ada, "Acme")
    await w.organization(ada, "Taken")
    await w.join(ada, org, bob, ["admin"])
    await w.join(ada, org, cy, ["member"])
    expect(await bob.post("organization/update", { organizationId: org.id, name: "Acme Inc" })).toMatchObject({ status: 200, body: { name: "Acme Inc" } })
    expect(await cy.post("organization/update", { organizationId: org.id, name: "Mine now" })).toMatchObject({ status: 403, body: { error: "Forbidden" } })
    expect(await bob.post("organization/update", { organizationId: org.id, slug: "taken" })).toMatchObject({ status: 409, body: { error: "SlugTaken" } })
    expect((await cy.get("organization/get", { organizationId: org.id })).body).toMatchObject({ name: "Acme Inc", slug: "acme" })
  })

  it("deleting needs an owner and a recent sign-in; it takes the members and invitations with it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    await w.join(ada, org, bob, ["admin"])
    await ada.post("organization/invitations/create", { organizationId: org.id, email: "dan@example.com" })
    expect(await bob.post("organization/delete", { organizationId: org.id })).toMatchObject({ status: 403, body: { error: "Forbidden" } })
    vi.setSystemTime(Date.now() + 11 * 60_000)
    expect(await ada.post("organization/delete", { organizationId: org.id })).toMatchObject({ status: 403, body: { error: "SignInTooOld" } })
    await ada.signIn()
    expect((await ada.post("organization/delete", { organizationId: org.id })).status).toBe(204)
    expect((await bob.get("organization/list")).body).toEqual([])
    expect(await w.adapter.store!.count((await import("@sesame/organizations")).invitationModel)).toBe(0)
  })

  it("a member leaves; the last owner cannot, until another owner exists", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    await w.join(ada, org, bob)
    expect(await ada.post("organization/leave", { organizationId: org.id })).toMatchObject({ status: 409, body: { error: "LastOwner" } })
    expect((await bob.post("organization/leave", { organizationId: org.id })).status).toBe(204)
    expect((await bob.get("organization/list")).body).toEqual([])
    const cy = await w.user("cy@example.com")
    await w.join(ada, org, cy, ["owner"])
    expect((await ada.post("organization/leave", { organizationId: org.id })).status).toBe(204)
  })
})

describe("another organization's ids", () => {
  it("every endpoint answers 404 for an organization the user is not a member of, as for one that does not exist", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const acme = await w.organization(ada, "Acme")
    await w.organization(eve, "Eve's")
    const bob = await w.user("bob@example.com")
    const bobMember = await w.join(ada, acme, bob)
    await ada.post("organization/invitations/create", { organizationId: acme.id, email: "dan@example.com" })
    const invitationId = (await ada.get("organization/invitations", { organizationId: acme.id })).body[0].id
    const posts: [string, Record<string, unknown>][] = [
      ["organization/update", { name: "Pwned" }],
      ["organization/delete", {}],
      ["organization/leave", {}],
      ["organization/active", {}],
      ["organization/members/roles", { memberId: bobMember, roles: ["admin"] }],
      ["organization/members/remove", { memberId: bobMember }],
      ["organization/invitations/create", { email: "mallory@example.com", roles: ["owner"] }],
      ["organization/invitations/resend", { invitationId }],
      ["organization/invitations/cancel", { invitationId }],
    ]
    for (const organizationId of [acme.id, crypto.randomUUID()]) {
      for (const [path, fields] of posts) expect(await eve.post(path, { organizationId, ...fields }), path).toMatchObject({ status: 404, body: { error: "NotFound" } })
      for (const path of ["organization/get", "organization/members", "organization/invitations"]) expect(await eve.get(path, { organizationId }), path).toMatchObject({ status: 404 })
    }
    expect(await eve.get("organization/get", { slug: "acme" })).toMatchObject({ status: 404 })
    expect((await eve.post("organization/has-permission", { organizationId: acme.id, permissions: { project: ["read"] } })).body).toEqual({ allowed: false })
    // Nothing changed in Acme.
    expect((await ada.get("organization/get", { organizationId: acme.id })).body.name).toBe("Acme")
    expect((await ada.get("organization/members", { organizationId: acme.id })).body).toHaveLength(2)
    expect(w.sent.map((m) => m.email)).toEqual(["bob@example.com", "dan@example.com"])
  })

  it("a member or invitation id of another organization matches nothing in the user's own", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const bob = await w.user("bob@example.com")
    const acme = await w.organization(ada, "Acme")
    const eves = await w.organization(eve, "Eve's")
    const bobInAcme = await w.join(ada, acme, bob)
    await ada.post("organization/invitations/create", { organizationId: acme.id, email: "dan@example.com" })
    const acmeInvitation = (await ada.get("organization/invitations", { organizationId: acme.id })).body[0].id
    // Eve is owner of her own organization and names Acme's member and invitation under it.
    expect(await eve.post("organization/members/remove", { organizationId: eves.id, memberId: bobInAcme })).toMatchObject({ status: 404 })
    expect(await eve.post("organization/members/roles", { organizationId: eves.id, memberId: bobInAcme, roles: ["member"] })).toMatchObject({ status: 404 })
    expect(await eve.post("organization/invitations/cancel", { organizationId: eves.id, invitationId: acmeInvitation })).toMatchObject({ status: 404 })
    expect(await eve.post("organization/invitations/resend", { organizationId: eves.id, invitationId: acmeInvitation })).toMatchObject({ status: 404 })
    expect((await ada.get("organization/members", { organizationId: acme.id })).body).toHaveLength(2)
    expect((await ada.get("organization/invitations", { organizationId: acme.id })).body).toHaveLength(1)
  })

  it("a request's JSON cannot widen a lookup (an object where an id goes)", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const acme = await w.organization(ada, "Acme")
    for (const organizationId of [{ ne: null }, ["x"], { $gt: "" }]) {
      expect(await eve.post("organization/update", { organizationId, name: "Pwned" })).toMatchObject({ status: 400 })
      expect(await eve.post("organization/has-permission", { organizationId, permissions: { project: ["read"] } })).toMatchObject({ body: { allowed: false } })
    }
    expect(await eve.post("organization/invitations/accept", { token: { ne: null } })).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
    expect((await ada.get("organization/get", { organizationId: acme.id })).body.name).toBe("Acme")
  })
})

describe("roles", () => {
  it("an admin makes a member an admin, or gives a custom role within their grants; several roles per member", async () => {
    const { bob, org, cyId } = await acmeWithStaff()
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["admin"] })).toMatchObject({ status: 200, body: { roles: ["admin"] } })
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["member", "billing"] })).toMatchObject({ status: 200, body: { roles: ["member", "billing"] } })
  })

  it("escalation is refused: admin → owner, member → admin, a role granting what the giver does not hold", async () => {
    const { bob, cy, org, bobId, cyId } = await acmeWithStaff()
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["owner"] })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: bobId, roles: ["owner"] })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["auditor"] })).toMatchObject({ status: 403 })
    expect(await cy.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["admin"] })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/invitations/create", { organizationId: org.id, email: "mallory@example.com", roles: ["owner"] })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["superuser"] })).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    expect((await cy.get("organization/get", { organizationId: org.id })).body.roles).toEqual(["member"])
  })

  it("an admin can neither demote nor remove an owner; an owner can", async () => {
    const { ada, bob, org, adaId, bobId } = await acmeWithStaff()
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: adaId, roles: ["member"] })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/members/remove", { organizationId: org.id, memberId: adaId })).toMatchObject({ status: 403 })
    expect((await ada.post("organization/members/remove", { organizationId: org.id, memberId: bobId })).status).toBe(204)
  })

  it("the last owner is never demoted or removed, by themselves either", async () => {
    const { ada, org, adaId, cyId } = await acmeWithStaff()
    expect(await ada.post("organization/members/roles", { organizationId: org.id, memberId: adaId, roles: ["admin"] })).toMatchObject({ status: 409, body: { error: "LastOwner" } })
    expect(await ada.post("organization/members/remove", { organizationId: org.id, memberId: adaId })).toMatchObject({ status: 409, body: { error: "LastOwner" } })
    await ada.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["owner"] })
    expect((await ada.post("organization/members/roles", { organizationId: org.id, memberId: adaId, roles: ["admin"] })).status).toBe(200)
  })

  it("hasPermission: the stored roles' grants, for the app's resources and the module's; false for an unknown resource", async () => {
    const { w, ada, bob, cy, org } = await acmeWithStaff()
    const ask = async (who: typeof ada, permissions: unknown) => (await who.post("organization/has-permission", { organizationId: org.id, permissions })).body.allowed
    expect(await ask(cy, { project: ["read"] })).toBe(true)
    expect(await ask(cy, { project: ["create"] })).toBe(false)
    expect(await ask(bob, { project: ["create", "read"], member: ["remove"] })).toBe(true)
    expect(await ask(bob, { project: ["delete"] })).toBe(false)
    expect(await ask(ada, { project: ["delete"], organization: ["delete"] })).toBe(true)
    expect(await ask(ada, { missiles: ["launch"] })).toBe(false)
    expect(await cy.api("hasPermission", org.id, { project: ["read"] })).toBe(true)
    expect(await new w.Browser().api("hasPermission", org.id, { project: ["read"] })).toBe(false)
  })
})

describe("a removed member", () => {
  it("loses the organization at once: its data, its permissions, and the active organization of a database session", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    const bobId = await w.join(ada, org, bob, ["admin"])
    expect(await bob.post("organization/active", { organizationId: org.id })).toMatchObject({ status: 200, body: { id: org.id, roles: ["admin"] } })
    expect((await bob.session()).organization).toMatchObject({ id: org.id, slug: "acme", roles: ["admin"] })
    await ada.post("organization/members/remove", { organizationId: org.id, memberId: bobId })
    expect((await bob.session()).organization).toBeUndefined()
    expect(await bob.get("organization/members", { organizationId: org.id })).toMatchObject({ status: 404 })
    expect(await bob.api("hasPermission", org.id, { member: ["remove"] })).toBe(false)
  })

  it("JWT sessions: the active organization goes at the next re-issue of the token (every read with updateAge 0)", async () => {
    const w = makeWorld({ strategy: "jwt", updateAge: 0 })
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    const bobId = await w.join(ada, org, bob)
    await bob.post("organization/active", { organizationId: org.id })
    expect((await bob.session()).organization).toMatchObject({ id: org.id })
    await ada.post("organization/members/remove", { organizationId: org.id, memberId: bobId })
    expect((await bob.session()).organization).toBeUndefined()
  })
})

describe("the active organization", () => {
  it.each(["database", "jwt"] as const)("%s sessions: switched among the user's own; another's is refused and changes nothing; null clears it", async (strategy) => {
    const w = makeWorld({ strategy })
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const one = await w.organization(ada, "One")
    const two = await w.organization(ada, "Two")
    const evil = await w.organization(eve, "Evil")
    await ada.post("organization/active", { organizationId: one.id })
    expect((await ada.session()).organization).toMatchObject({ id: one.id, name: "One", roles: ["owner"] })
    await ada.post("organization/active", { organizationId: two.id })
    expect((await ada.session()).organization).toMatchObject({ id: two.id })
    expect(await ada.post("organization/active", { organizationId: evil.id })).toMatchObject({ status: 404 })
    expect((await ada.session()).organization).toMatchObject({ id: two.id })
    expect((await ada.post("organization/active", { organizationId: null })).status).toBe(200)
    expect((await ada.session()).organization).toBeUndefined()
  })

  it("a JWT update() naming another organization does not make it active", async () => {
    const w = makeWorld({ strategy: "jwt" })
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const evil = await w.organization(eve, "Evil")
    const mine = await w.organization(ada, "Mine")
    await ada.post("organization/active", { organizationId: mine.id })
    const updated = await ada.send("session", { json: { csrfToken: await ada.csrf(), data: { organization: { id: evil.id, roles: ["owner"] } } } })
    expect((await updated.json()).organization).toMatchObject({ id: mine.id, roles: ["owner"] })
    expect((await ada.session()).organization).toMatchObject({ id: mine.id })
  })
})

describe("API tokens", () => {
  it("carry the active organization (org_id, org_roles); a removed member's next token does not", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    const bobId = await w.join(ada, org, bob, ["admin"])
    const claims = async () => decodeJwt(((await bob.get("token")).body as { token: string }).token)
    expect(await claims()).not.toHaveProperty("org_id")
    await bob.post("organization/active", { organizationId: org.id })
    expect(await claims()).toMatchObject({ org_id: org.id, org_roles: ["admin"], sub: bob.id })
    await ada.post("organization/members/remove", { organizationId: org.id, memberId: bobId })
    expect(await claims()).not.toHaveProperty("org_id")
  })
})

describe("without a store", () => {
  it("the module is off (an Auth.js adapter): its endpoints answer 400, and sign-in works", async () => {
    const w = makeWorld()
    const { store: _store, ...adapter } = w.adapter
    const config = { ...w.config, adapter }
    const { Auth } = await import("@sesame/core")
    const response = await Auth(new Request("http://localhost:3000/auth/organization/list"), config)
    expect(response.status).toBe(400)
    expect((await Auth(new Request("http://localhost:3000/auth/session"), config)).status).toBe(200)
  })
})
