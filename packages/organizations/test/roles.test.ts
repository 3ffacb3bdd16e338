/**
 * An organization's own roles (`dynamicRoles: true`): written by its admins within what they hold,
 * given to members and invitations like the configuration's roles, and never a way to grant more
 * than the author holds.
 */
import { describe, expect, it } from "vitest"
import { makeWorld } from "./world.js"

async function acme() {
  const w = makeWorld({ dynamicRoles: true })
  const ada = await w.user("ada@example.com")
  const bob = await w.user("bob@example.com")
  const cy = await w.user("cy@example.com")
  const org = await w.organization(ada, "Acme")
  await w.join(ada, org, bob, ["admin"])
  const cyId = await w.join(ada, org, cy, ["member"])
  return { w, ada, bob, cy, org, cyId }
}

describe("an organization's own roles", () => {
  it("are off by default", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    expect(await ada.post("organization/roles/create", { organizationId: org.id, name: "reader", grants: { project: ["read"] } })).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    expect((await ada.get("organization/roles", { organizationId: org.id })).body.map((r: { name: string }) => r.name)).toEqual(["owner", "admin", "member", "billing", "auditor"])
  })

  it("an admin writes one within their grants, gives it to a member, and its grants count; deleted, it grants nothing", async () => {
    const { w, bob, cy, org, cyId } = await acme()
    const created = await bob.post("organization/roles/create", { organizationId: org.id, name: "publisher", grants: { project: ["create"], invitation: ["create"] } })
    expect(created).toMatchObject({ status: 200, body: { name: "publisher", configured: false, grants: { project: ["create"], invitation: ["create"] } } })
    expect((await cy.get("organization/roles", { organizationId: org.id })).body.at(-1)).toMatchObject({ name: "publisher" })
    expect(await cy.api("hasPermission", org.id, { project: ["create"] })).toBe(false)
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["member", "publisher"] })).toMatchObject({ status: 200 })
    expect(await cy.api("hasPermission", org.id, { project: ["create", "read"] })).toBe(true)
    // Cy may now invite, with roles within her own.
    expect(await cy.post("organization/invitations/create", { organizationId: org.id, email: "dan@example.com", roles: ["publisher"] })).toMatchObject({ status: 200 })
    expect(await cy.post("organization/invitations/create", { organizationId: org.id, email: "eve@example.com", roles: ["admin"] })).toMatchObject({ status: 403 })
    expect((await bob.post("organization/roles/delete", { organizationId: org.id, roleId: created.body.id })).status).toBe(204)
    expect(await cy.api("hasPermission", org.id, { project: ["create"] })).toBe(false)
    expect((await cy.get("organization/get", { organizationId: org.id })).body.roles).toEqual(["member", "publisher"])
    expect(w.events.filter((e) => e.type.startsWith("role.")).map((e) => e.type)).toEqual(["role.created", "role.deleted"])
  })

  it("a role granting what its author does not hold is refused, written or changed; one beyond them cannot be changed or deleted by them", async () => {
    const { ada, bob, org } = await acme()
    expect(await bob.post("organization/roles/create", { organizationId: org.id, name: "deleter", grants: { project: ["delete"] } })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/roles/create", { organizationId: org.id, name: "killer", grants: { organization: ["delete"] } })).toMatchObject({ status: 403 })
    const reader = await bob.post("organization/roles/create", { organizationId: org.id, name: "reader", grants: { project: ["read"] } })
    expect(await bob.post("organization/roles/update", { organizationId: org.id, roleId: reader.body.id, grants: { project: ["read", "delete"] } })).toMatchObject({ status: 403 })
    const owners = await ada.post("organization/roles/create", { organizationId: org.id, name: "deleter", grants: { project: ["delete"] } })
    expect(owners.status).toBe(200)
    expect(await bob.post("organization/roles/update", { organizationId: org.id, roleId: owners.body.id, grants: { project: ["read"] } })).toMatchObject({ status: 403 })
    expect(await bob.post("organization/roles/delete", { organizationId: org.id, roleId: owners.body.id })).toMatchObject({ status: 403 })
    expect((await ada.post("organization/roles/update", { organizationId: org.id, roleId: owners.body.id, grants: { project: ["read"] } })).status).toBe(200)
  })

  it("an admin cannot give a member an organization's role beyond their own", async () => {
    const { ada, bob, org, cyId } = await acme()
    await ada.post("organization/roles/create", { organizationId: org.id, name: "deleter", grants: { project: ["delete"] } })
    expect(await bob.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["deleter"] })).toMatchObject({ status: 403 })
    expect(await ada.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["deleter"] })).toMatchObject({ status: 200 })
  })

  it("names and grants are checked: the configuration's names, prototype names, unknown resources", async () => {
    const { ada, org } = await acme()
    for (const [name, grants] of [["admin", { project: ["read"] }], ["__proto__", { project: ["read"] }], ["constructor", { project: ["read"] }], ["Bad Name", {}], ["ok", { missiles: ["launch"] }], ["ok", { project: "read" }], ["ok", null]] as const) {
      expect(await ada.post("organization/roles/create", { organizationId: org.id, name, grants }), `${name} ${JSON.stringify(grants)}`).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    }
    await ada.post("organization/roles/create", { organizationId: org.id, name: "twice", grants: { project: ["read"] } })
    expect(await ada.post("organization/roles/create", { organizationId: org.id, name: "twice", grants: { project: ["read"] } })).toMatchObject({ status: 400 })
  })

  it("belong to their organization: another's role id is 404, its roles grant nothing here, and a member cannot write them", async () => {
    const { w, ada, cy, org, cyId } = await acme()
    const eve = await w.user("eve@example.com")
    const evil = await w.organization(eve, "Evil")
    const theirs = await eve.post("organization/roles/create", { organizationId: evil.id, name: "superpower", grants: { project: ["delete"] } })
    expect(await ada.post("organization/roles/delete", { organizationId: org.id, roleId: theirs.body.id })).toMatchObject({ status: 404 })
    expect(await eve.post("organization/roles/delete", { organizationId: org.id, roleId: theirs.body.id })).toMatchObject({ status: 404 })
    expect(await ada.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["superpower"] })).toMatchObject({ status: 400 })
    expect(await cy.post("organization/roles/create", { organizationId: org.id, name: "mine", grants: { project: ["read"] } })).toMatchObject({ status: 403 })
  })
})
