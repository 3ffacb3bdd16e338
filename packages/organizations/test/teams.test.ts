/**
 * Teams inside an organization, through the endpoints and server functions: the legitimate flows,
 * each beside the attack that tries to walk around its rule (another organization's team or
 * member id, a member managing teams, a lead managing another team, bad input).
 *
 * The module's index does not add the teams yet, so the world's configuration gets a module of
 * its own: the organizations module with the teams' models, endpoints and server functions.
 */
import { describe, expect, it } from "vitest"
import { OrganizationError } from "@sesame/organizations"
import { teamMemberModel, teamModel, teamRoles } from "@sesame/organizations"
import { makeWorld } from "./world.js"

/** The world of world.ts, its organizations module with teams; the same statements and roles. */
type World = ReturnType<typeof makeWorld>
type Who = Awaited<ReturnType<World["user"]>>

/** The membership id of `who` in `org`, as its owner lists it. */
async function memberIdOf(owner: Who, org: { id: string }, who: { id: string }): Promise<string> {
  const members = (await owner.get("organization/members", { organizationId: org.id })).body as { id: string; userId: string }[]
  return members.find((m) => m.userId === who.id)!.id
}

/** Ada owns Acme; Bob is an admin, Cy and Dan members; Acme has the team Web. */
async function acme() {
  const w = makeWorld()
  const ada = await w.user("ada@example.com")
  const bob = await w.user("bob@example.com")
  const cy = await w.user("cy@example.com")
  const dan = await w.user("dan@example.com")
  const org = await w.organization(ada, "Acme")
  const bobId = await w.join(ada, org, bob, ["admin"])
  const cyId = await w.join(ada, org, cy, ["member"])
  const danId = await w.join(ada, org, dan, ["member"])
  const adaId = await memberIdOf(ada, org, ada)
  const web = (await bob.post("organization/teams/create", { organizationId: org.id, name: "Web" })).body as { id: string }
  w.events.length = 0
  return { w, ada, bob, cy, dan, org, adaId, bobId, cyId, danId, web }
}

const teamRows = (w: World) => w.adapter.store!.findMany(teamMemberModel)

describe("teams", () => {
  it("an admin creates, renames and lists teams; any member lists them; each change is an event", async () => {
    const { w, bob, cy, org, web } = await acme()
    expect(teamRoles).toEqual(["lead", "member"])
    const created = await bob.post("organization/teams/create", { organizationId: org.id, name: "  Mobile " })
    expect(created).toMatchObject({ status: 200, body: { organizationId: org.id, name: "Mobile" } })
    expect(await bob.post("organization/teams/rename", { organizationId: org.id, teamId: created.body.id, name: "Apps" })).toMatchObject({ status: 200, body: { id: created.body.id, name: "Apps" } })
    expect((await cy.get("organization/teams", { organizationId: org.id })).body).toEqual([
      expect.objectContaining({ id: web.id, name: "Web" }),
      expect.objectContaining({ id: created.body.id, name: "Apps" }),
    ])
    expect(w.events).toEqual([
      { type: "team.created", organizationId: org.id, actorId: bob.id, teamId: created.body.id, name: "Mobile" },
      { type: "team.renamed", organizationId: org.id, actorId: bob.id, teamId: created.body.id, name: "Apps", previous: "Mobile" },
    ])
  })

  it("an admin adds members with team roles, changes them and removes them; members list the team and their own teams", async () => {
    const { w, bob, cy, dan, org, cyId, danId, web } = await acme()
    const added = await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId })
    expect(added).toMatchObject({ status: 200, body: { teamId: web.id, memberId: cyId, userId: cy.id, roles: ["member"], user: { email: "cy@example.com" } } })
    expect(await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId, roles: "lead" })).toMatchObject({ status: 200, body: { roles: ["lead"] } })
    expect(await bob.post("organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["lead", "member"] })).toMatchObject({ status: 200, body: { memberId: cyId, roles: ["lead", "member"] } })
    expect((await dan.get("organization/teams/members", { organizationId: org.id, teamId: web.id })).body).toEqual([
      expect.objectContaining({ memberId: cyId, roles: ["lead", "member"] }),
      expect.objectContaining({ memberId: danId, roles: ["lead"] }),
    ])
    expect((await cy.get("organization/teams/mine", { organizationId: org.id })).body).toEqual([expect.objectContaining({ id: web.id, name: "Web", roles: ["lead", "member"] })])
    expect((await bob.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: cyId })).status).toBe(204)
    expect((await cy.get("organization/teams/mine", { organizationId: org.id })).body).toEqual([])
    expect(w.events.map((e) => e.type)).toEqual(["team.member-added", "team.member-added", "team.member-roles-changed", "team.member-removed"])
    expect(w.events[2]).toEqual({ type: "team.member-roles-changed", organizationId: org.id, actorId: bob.id, teamId: web.id, memberId: cyId, userId: cy.id, roles: ["lead", "member"], previous: ["member"] })
  })

  it("deleting a team takes its memberships; its members stay in the organization", async () => {
    const { w, bob, cy, org, cyId, web } = await acme()
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId })
    expect((await bob.post("organization/teams/delete", { organizationId: org.id, teamId: web.id })).status).toBe(204)
    expect((await cy.get("organization/teams", { organizationId: org.id })).body).toEqual([])
    expect((await cy.get("organization/teams/mine", { organizationId: org.id })).body).toEqual([])
    expect(await teamRows(w)).toEqual([])
    expect((await cy.get("organization/list")).body).toEqual([expect.objectContaining({ id: org.id })])
    expect(await bob.post("organization/teams/delete", { organizationId: org.id, teamId: web.id })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect(w.events.at(-1)).toEqual({ type: "team.deleted", organizationId: org.id, actorId: bob.id, teamId: web.id, name: "Web" })
  })

  it("the server functions do the same, with the request's user", async () => {
    const { bob, cy, org, cyId } = await acme()
    const team = await bob.api("createTeam", org.id, "Ops")
    expect(team).toMatchObject({ name: "Ops", organizationId: org.id })
    expect(await bob.api("addTeamMember", org.id, team.id, cyId)).toMatchObject({ memberId: cyId, roles: ["member"] })
    expect(await cy.api("listMyTeams", org.id)).toEqual([expect.objectContaining({ id: team.id, roles: ["member"] })])
    expect(await cy.api("listTeamMembers", org.id, team.id)).toEqual([expect.objectContaining({ memberId: cyId })])
    await expect(cy.api("createTeam", org.id, "Mine")).rejects.toBeInstanceOf(OrganizationError)
    await expect(cy.api("createTeam", org.id, "Mine")).rejects.toMatchObject({ code: "Forbidden" })
  })
})

describe("who manages teams", () => {
  it("a member creates, renames, deletes no team and manages no team's membership; a visitor is 401, a stranger 404", async () => {
    const { w, cy, org, danId, web } = await acme()
    const forbidden = { status: 403, body: { error: "Forbidden" } }
    expect(await cy.post("organization/teams/create", { organizationId: org.id, name: "Mine" })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/rename", { organizationId: org.id, teamId: web.id, name: "Mine" })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/delete", { organizationId: org.id, teamId: web.id })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject(forbidden)
    expect((await cy.get("organization/teams", { organizationId: org.id })).body).toEqual([expect.objectContaining({ id: web.id, name: "Web" })])
    const visitor = new w.Browser()
    expect(await visitor.get("organization/teams", { organizationId: org.id })).toMatchObject({ status: 401, body: { error: "NotSignedIn" } })
    expect(await visitor.post("organization/teams/create", { organizationId: org.id, name: "X" })).toMatchObject({ status: 401 })
    const eve = await w.user("eve@example.com")
    for (const [path, fields] of [
      ["organization/teams/create", { name: "Pwned" }],
      ["organization/teams/rename", { teamId: web.id, name: "Pwned" }],
      ["organization/teams/delete", { teamId: web.id }],
      ["organization/teams/members/add", { teamId: web.id, memberId: danId }],
      ["organization/teams/members/roles", { teamId: web.id, memberId: danId, roles: ["lead"] }],
      ["organization/teams/members/remove", { teamId: web.id, memberId: danId }],
    ] as const) {
      expect(await eve.post(path, { organizationId: org.id, ...fields }), path).toMatchObject({ status: 404, body: { error: "NotFound" } })
    }
    for (const path of ["organization/teams", "organization/teams/mine", "organization/teams/members"]) {
      expect(await eve.get(path, { organizationId: org.id, teamId: web.id }), path).toMatchObject({ status: 404, body: { error: "NotFound" } })
    }
    expect(w.events).toEqual([])
  })

  it("a team's lead manages its membership, and only its own: not another team's, not the teams themselves", async () => {
    const { w, ada, bob, cy, dan, org, adaId, cyId, danId, web } = await acme()
    const ops = (await bob.post("organization/teams/create", { organizationId: org.id, name: "Ops" })).body as { id: string }
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["lead"] })
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: ops.id, memberId: danId })
    // Cy leads Web: adds, promotes, removes there.
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject({ status: 200, body: { roles: ["member"] } })
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: adaId })).toMatchObject({ status: 200 })
    expect(await cy.post("organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: danId, roles: ["lead"] })).toMatchObject({ status: 200, body: { roles: ["lead"] } })
    expect((await cy.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: adaId })).status).toBe(204)
    // Not Ops: Cy is not in it, and Dan is a plain member of it.
    const forbidden = { status: 403, body: { error: "Forbidden" } }
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: ops.id, memberId: cyId })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/members/roles", { organizationId: org.id, teamId: ops.id, memberId: danId, roles: ["lead"] })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/members/remove", { organizationId: org.id, teamId: ops.id, memberId: danId })).toMatchObject(forbidden)
    expect(await dan.post("organization/teams/members/roles", { organizationId: org.id, teamId: ops.id, memberId: danId, roles: ["lead"] })).toMatchObject(forbidden)
    // Nor the teams themselves.
    expect(await cy.post("organization/teams/rename", { organizationId: org.id, teamId: web.id, name: "Cy's" })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/delete", { organizationId: org.id, teamId: web.id })).toMatchObject(forbidden)
    expect(await cy.post("organization/teams/create", { organizationId: org.id, name: "New" })).toMatchObject(forbidden)
    expect((await ada.get("organization/teams/members", { organizationId: org.id, teamId: ops.id })).body).toEqual([expect.objectContaining({ memberId: danId, roles: ["member"] })])
    // A lead demoted is a lead no more.
    await bob.post("organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["member"] })
    expect(await cy.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject(forbidden)
    expect(w.events.filter((e) => e.actorId === cy.id).map((e) => e.type)).toEqual(["team.member-added", "team.member-added", "team.member-roles-changed", "team.member-removed"])
  })
})

describe("another organization's ids", () => {
  it("a team of another organization is 404 with this organization's id, and with its own to a non-member", async () => {
    const { w, ada, bob, org, cyId, web } = await acme()
    const eve = await w.user("eve@example.com")
    const other = await w.organization(eve, "Evil")
    const evil = (await eve.post("organization/teams/create", { organizationId: other.id, name: "Evil team" })).body as { id: string }
    const eveId = await memberIdOf(eve, other, eve)
    await eve.post("organization/teams/members/add", { organizationId: other.id, teamId: evil.id, memberId: eveId })
    const notFound = { status: 404, body: { error: "NotFound" } }
    // Bob, Acme's admin, names Evil's team with Acme's id.
    expect(await bob.post("organization/teams/rename", { organizationId: org.id, teamId: evil.id, name: "Pwned" })).toMatchObject(notFound)
    expect(await bob.post("organization/teams/delete", { organizationId: org.id, teamId: evil.id })).toMatchObject(notFound)
    expect(await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: evil.id, memberId: cyId })).toMatchObject(notFound)
    expect(await bob.post("organization/teams/members/roles", { organizationId: org.id, teamId: evil.id, memberId: eveId, roles: ["member"] })).toMatchObject(notFound)
    expect(await bob.post("organization/teams/members/remove", { organizationId: org.id, teamId: evil.id, memberId: eveId })).toMatchObject(notFound)
    expect(await bob.get("organization/teams/members", { organizationId: org.id, teamId: evil.id })).toMatchObject(notFound)
    // Eve, Evil's owner, names Acme's team with Evil's id.
    expect(await eve.post("organization/teams/rename", { organizationId: other.id, teamId: web.id, name: "Pwned" })).toMatchObject(notFound)
    expect(await eve.post("organization/teams/delete", { organizationId: other.id, teamId: web.id })).toMatchObject(notFound)
    expect(await eve.post("organization/teams/members/add", { organizationId: other.id, teamId: web.id, memberId: eveId })).toMatchObject(notFound)
    expect(await eve.get("organization/teams/members", { organizationId: other.id, teamId: web.id })).toMatchObject(notFound)
    expect((await ada.get("organization/teams", { organizationId: org.id })).body).toEqual([expect.objectContaining({ id: web.id, name: "Web" })])
    expect((await eve.get("organization/teams", { organizationId: other.id })).body).toEqual([expect.objectContaining({ id: evil.id, name: "Evil team" })])
    expect(w.events.filter((e) => e.actorId !== eve.id)).toEqual([])
  })

  it("a member of organization B added to a team of organization A is 404, even by one who administers both", async () => {
    const { w, ada, bob, org, web } = await acme()
    const eve = await w.user("eve@example.com")
    const other = await w.organization(ada, "Other")
    const eveInOther = await w.join(ada, other, eve)
    const bobInOther = await w.join(ada, other, bob, ["admin"])
    const notFound = { status: 404, body: { error: "NotFound" } }
    expect(await ada.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: eveInOther })).toMatchObject(notFound)
    // Bob is a member of both, but his membership of Other is not one of Acme.
    expect(await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: bobInOther })).toMatchObject(notFound)
    expect(await ada.post("organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: eveInOther, roles: ["lead"] })).toMatchObject(notFound)
    expect(await ada.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: eveInOther })).toMatchObject(notFound)
    expect(await teamRows(w)).toEqual([])
  })

  it("a lead of a team in organization B is no lead of organization A's team of the same name", async () => {
    const { w, ada, cy, org, danId, web } = await acme()
    const other = await w.organization(cy, "Cy's")
    const cyTeam = (await cy.post("organization/teams/create", { organizationId: other.id, name: "Web" })).body as { id: string }
    await cy.post("organization/teams/members/add", { organizationId: other.id, teamId: cyTeam.id, memberId: await memberIdOf(cy, other, cy), roles: ["lead"] })
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject({ status: 403, body: { error: "Forbidden" } })
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: cyTeam.id, memberId: danId })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect((await ada.get("organization/teams/members", { organizationId: org.id, teamId: web.id })).body).toEqual([])
  })
})

describe("membership of the organization", () => {
  it("a member removed from the organization, or who leaves it, leaves its teams; joining again is not being in them", async () => {
    const { w, ada, bob, cy, dan, org, cyId, danId, web } = await acme()
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["lead"] })
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId })
    expect((await bob.post("organization/members/remove", { organizationId: org.id, memberId: cyId })).status).toBe(204)
    expect((await dan.get("organization/teams/members", { organizationId: org.id, teamId: web.id })).body).toEqual([expect.objectContaining({ memberId: danId })])
    expect(await cy.get("organization/teams/mine", { organizationId: org.id })).toMatchObject({ status: 404 })
    expect(await cy.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect((await dan.post("organization/leave", { organizationId: org.id })).status).toBe(204)
    expect(await teamRows(w)).toEqual([])
    const cyAgain = await w.join(ada, org, cy)
    expect(cyAgain).not.toBe(cyId)
    expect((await cy.get("organization/teams/mine", { organizationId: org.id })).body).toEqual([])
    expect(await cy.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyAgain })).toMatchObject({ status: 403 })
  })

  it("deleting the organization deletes its teams and their memberships", async () => {
    const { w, ada, bob, org, cyId, web } = await acme()
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId })
    expect((await ada.post("organization/delete", { organizationId: org.id })).status).toBe(204)
    expect(await w.adapter.store!.count(teamModel)).toBe(0)
    expect(await w.adapter.store!.count(teamMemberModel)).toBe(0)
  })
})

describe("input", () => {
  it("a team name is unique in its organization, not across organizations; renaming to its own name is no change", async () => {
    const { w, ada, bob, org, web } = await acme()
    const taken = { status: 400, body: { error: "InvalidInput", message: "A team of this name exists in the organization." } }
    expect(await bob.post("organization/teams/create", { organizationId: org.id, name: "Web" })).toMatchObject(taken)
    expect(await bob.post("organization/teams/create", { organizationId: org.id, name: " Web  " })).toMatchObject(taken)
    const ops = (await bob.post("organization/teams/create", { organizationId: org.id, name: "Ops" })).body as { id: string }
    expect(await bob.post("organization/teams/rename", { organizationId: org.id, teamId: ops.id, name: "Web" })).toMatchObject(taken)
    expect(await bob.post("organization/teams/rename", { organizationId: org.id, teamId: web.id, name: "Web" })).toMatchObject({ status: 200, body: { id: web.id, name: "Web" } })
    const other = await w.organization(ada, "Other")
    expect(await ada.post("organization/teams/create", { organizationId: other.id, name: "Web" })).toMatchObject({ status: 200, body: { name: "Web" } })
    expect((await ada.get("organization/teams", { organizationId: org.id })).body.map((t: { name: string }) => t.name)).toEqual(["Web", "Ops"])
  })

  it("a member already in the team is a 409; an unknown team role or a bad field is a 400 in JSON, never a 500", async () => {
    const { w, bob, org, cyId, danId, web } = await acme()
    await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId })
    expect(await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["lead"] })).toMatchObject({ status: 409, body: { error: "AlreadyMember" } })
    const invalid = { status: 400, body: { error: "InvalidInput" } }
    const posts: [string, Record<string, unknown>][] = [
      ["organization/teams/create", {}],
      ["organization/teams/create", { organizationId: org.id }],
      ["organization/teams/create", { organizationId: org.id, name: "" }],
      ["organization/teams/create", { organizationId: org.id, name: { $ne: null } }],
      ["organization/teams/create", { organizationId: org.id, name: "x".repeat(101) }],
      ["organization/teams/create", { organizationId: { $ne: null }, name: "A" }],
      ["organization/teams/rename", { organizationId: org.id, name: "A" }],
      ["organization/teams/rename", { organizationId: org.id, teamId: { $gt: "" }, name: "A" }],
      ["organization/teams/rename", { organizationId: org.id, teamId: web.id, name: ["A"] }],
      ["organization/teams/delete", { organizationId: org.id, teamId: ["a", "b"] }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId, roles: ["owner"] }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId, roles: ["admin"] }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId, roles: [] }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: danId, roles: { lead: true } }],
      ["organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: { $ne: null } }],
      ["organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: cyId }],
      ["organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: ["boss"] }],
      ["organization/teams/members/roles", { organizationId: org.id, teamId: web.id, memberId: cyId, roles: [1] }],
      ["organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: 42 }],
    ]
    for (const [path, fields] of posts) {
      expect(await bob.post(path, fields), `${path} ${JSON.stringify(fields)}`).toMatchObject(invalid)
    }
    expect(await bob.get("organization/teams/members", { organizationId: org.id })).toMatchObject(invalid)
    expect(await bob.get("organization/teams/members", { organizationId: org.id, teamId: "not an id!" })).toMatchObject(invalid)
    expect(await bob.get("organization/teams", {})).toMatchObject(invalid)
    expect(await bob.get("organization/teams/mine", { organizationId: "../x" })).toMatchObject(invalid)
    // Ids that could be ids but name nothing.
    expect(await bob.post("organization/teams/members/add", { organizationId: org.id, teamId: web.id, memberId: crypto.randomUUID() })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect(await bob.post("organization/teams/members/remove", { organizationId: org.id, teamId: web.id, memberId: danId })).toMatchObject({ status: 404, body: { error: "NotFound", message: "No such team member." } })
    expect(await bob.get("organization/teams/members", { organizationId: org.id, teamId: crypto.randomUUID() })).toMatchObject({ status: 404, body: { error: "NotFound" } })
    expect((await bob.get("organization/teams/members", { organizationId: org.id, teamId: web.id })).body).toEqual([expect.objectContaining({ memberId: cyId, roles: ["member"] })])
    expect(w.events.map((e) => e.type)).toEqual(["team.member-added"])
  })
})
