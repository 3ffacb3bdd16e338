/**
 * The module's functions for another module's provisioning (an identity provider's SCIM service),
 * called as that module calls them, with its context: `deprovision` removes a member as an admin's
 * removal does (departure noted at the instant it answers; never an owner; a concurrent change
 * `conflict`, nothing stored), `provisionRoles` gives and takes roles (never `owner`, never an
 * unknown role, never the last one, read again on a concurrent change), `forgetDeparture` takes
 * away only the departure noted at the instant named, and `join` names the actor it is given.
 * Each change is reported to `onChange` by `scim:<connection id>`; nothing is when nothing changes.
 */
import type { ModuleContext, Store } from "@sesame/core"
import { departureModel, memberModel } from "@sesame/organizations"
import { describe, expect, it } from "vitest"
import { acmeWithStaff, makeWorld } from "./world.js"

const actorId = "scim:0b6a4c52-connection"

/** The module's context as the core hands it to another module, on `store` (default: the world's). */
function contextOf(w: ReturnType<typeof makeWorld>, store: Store = w.adapter.store!): ModuleContext {
  return {
    store,
    logger: { debug: () => {}, error: () => {} },
    sealing: { seal: async (_purpose, value) => value, open: async (_purpose, value) => ({ value, rotated: false }) },
  }
}

/** Acme's staff (world.ts), the events so far forgotten, and the module's context. */
async function staff(options: Parameters<typeof makeWorld>[0] = {}) {
  const world = await acmeWithStaff(options)
  world.w.events.length = 0
  return { ...world, context: contextOf(world.w) }
}

const departureOf = (w: ReturnType<typeof makeWorld>, organizationId: string, userId: string) => w.adapter.store!.findOne(departureModel, { organizationId, userId })

describe("deprovision", () => {
  it("removes the member, notes the departure at the instant it answers, and reports member.removed by the provisioning", async () => {
    const { w, ada, cy, org, cyId, context } = await staff()
    const done = await w.orgs.deprovision(context, { organizationId: org.id, userId: cy.id, actorId })
    expect(done).toEqual({ outcome: "removed", memberId: cyId, at: expect.any(Date) })
    expect(w.events).toEqual([{ type: "member.removed", organizationId: org.id, actorId, memberId: cyId, userId: cy.id }])
    const members = (await ada.get("organization/members", { organizationId: org.id })).body as { userId: string }[]
    expect(members.map((m) => m.userId)).not.toContain(cy.id)
    const departure = await departureOf(w, org.id, cy.id)
    expect((departure?.at as Date).getTime()).toBe((done as { at: Date }).at.getTime())

    // Not a member any more: nothing to do, nothing reported.
    expect(await w.orgs.deprovision(context, { organizationId: org.id, userId: cy.id, actorId })).toEqual({ outcome: "not-member" })
    expect(w.events).toHaveLength(1)
  })

  it("refuses an owner: nothing removed, noted or reported", async () => {
    const { w, ada, org, adaId, context } = await staff()
    expect(await w.orgs.deprovision(context, { organizationId: org.id, userId: ada.id, actorId })).toEqual({ outcome: "owner" })
    expect(await w.adapter.store!.findOne(memberModel, { id: adaId })).toMatchObject({ roles: ["owner"] })
    expect(await departureOf(w, org.id, ada.id)).toBeNull()
    expect(w.events).toEqual([])
  })

  it("answers conflict when the membership changed between the read and the delete, and rolls back: no departure, no event", async () => {
    const { w, cy, org, cyId } = await staff()
    const store = w.adapter.store!
    // The row moved under the delete (another admin's change): its versioned delete matches nothing.
    const racing: Store = { ...store, delete: async (model, where) => (model.name === memberModel.name ? 0 : store.delete(model, where)), transaction: (fn) => store.transaction(() => fn(racing)) }
    expect(await w.orgs.deprovision(contextOf(w, racing), { organizationId: org.id, userId: cy.id, actorId })).toEqual({ outcome: "conflict" })
    expect(await store.findOne(memberModel, { id: cyId })).not.toBeNull()
    expect(await departureOf(w, org.id, cy.id)).toBeNull()
    expect(w.events).toEqual([])
  })
})

describe("provisionRoles", () => {
  it("gives and takes roles, reporting member.roles-changed with the roles before; nothing when they stay the same", async () => {
    const { w, cy, org, cyId, context } = await staff()
    const roles = (input: { add?: string[]; remove?: string[] }) => w.orgs.provisionRoles(context, { organizationId: org.id, userId: cy.id, actorId, ...input })

    expect(await roles({ add: ["admin"] })).toEqual({ outcome: "changed", memberId: cyId, roles: ["member", "admin"], previous: ["member"] })
    expect(w.events).toEqual([{ type: "member.roles-changed", organizationId: org.id, actorId, memberId: cyId, userId: cy.id, roles: ["member", "admin"], previous: ["member"] }])

    // Already held, not held, or only `owner` and unknown roles: unchanged, not written, not reported.
    const version = (await w.adapter.store!.findOne(memberModel, { id: cyId }))?.version
    expect(await roles({ add: ["admin"] })).toEqual({ outcome: "unchanged" })
    expect(await roles({ remove: ["billing"] })).toEqual({ outcome: "unchanged" })
    expect(await roles({ add: ["owner", "nosuch"] })).toEqual({ outcome: "unchanged" })
    expect((await w.adapter.store!.findOne(memberModel, { id: cyId }))?.version).toBe(version)
    expect(w.events).toHaveLength(1)

    expect(await roles({ remove: ["admin"], add: ["billing"] })).toMatchObject({ outcome: "changed", roles: ["member", "billing"], previous: ["member", "admin"] })
    expect(await roles({ remove: ["member"] })).toMatchObject({ outcome: "changed", roles: ["billing"] })
    // The last role stays: never a member without one.
    expect(await roles({ remove: ["billing"] })).toEqual({ outcome: "unchanged" })
    expect(w.events.map((e) => e.type)).toEqual(["member.roles-changed", "member.roles-changed", "member.roles-changed"])
    expect(w.events.every((e) => e.actorId === actorId)).toBe(true)
    expect((await w.adapter.store!.findOne(memberModel, { id: cyId }))?.roles).toEqual(["billing"])
  })

  it("never gives nor takes `owner`, and answers not-member for someone who is not one", async () => {
    const { w, ada, org, adaId, context } = await staff()
    expect(await w.orgs.provisionRoles(context, { organizationId: org.id, userId: ada.id, actorId, remove: ["owner"] })).toEqual({ outcome: "unchanged" })
    expect(await w.adapter.store!.findOne(memberModel, { id: adaId })).toMatchObject({ roles: ["owner"] })
    const eve = await w.user("eve@example.com")
    expect(await w.orgs.provisionRoles(context, { organizationId: org.id, userId: eve.id, actorId, add: ["admin"] })).toEqual({ outcome: "not-member" })
    expect(await w.adapter.store!.findOne(memberModel, { organizationId: org.id, userId: eve.id })).toBeNull()
    expect(w.events).toEqual([])
  })

  it("gives an organization's own role, and not one it does not define", async () => {
    const { w, ada, cy, org, context } = await staff({ dynamicRoles: true })
    await ada.api("createRole", org.id, "viewer", { project: ["read"] })
    w.events.length = 0
    expect(await w.orgs.provisionRoles(context, { organizationId: org.id, userId: cy.id, actorId, add: ["viewer", "deleted-meanwhile"] })).toMatchObject({ outcome: "changed", roles: ["member", "viewer"] })
    expect(w.events).toMatchObject([{ type: "member.roles-changed", roles: ["member", "viewer"], previous: ["member"] }])
  })

  it("reads the membership again when it changed meanwhile, and reports the roles it read last; conflict when it keeps changing", async () => {
    const { w, cy, org, cyId } = await staff()
    const store = w.adapter.store!
    let raced = false
    // The first write loses to another one (billing given meanwhile): the version it names has moved.
    const once: Store = {
      ...store,
      update: async (model, where, values) => {
        if (model.name === memberModel.name && !raced) {
          raced = true
          const row = await store.findOne(memberModel, { id: cyId })
          await store.update(memberModel, { id: cyId }, { roles: ["member", "billing"], version: Number(row!.version ?? 0) + 1 })
        }
        return store.update(model, where, values)
      },
    }
    expect(await w.orgs.provisionRoles(contextOf(w, once), { organizationId: org.id, userId: cy.id, actorId, add: ["admin"] })).toMatchObject({ outcome: "changed", roles: ["member", "billing", "admin"], previous: ["member", "billing"] })
    expect(w.events).toMatchObject([{ type: "member.roles-changed", roles: ["member", "billing", "admin"], previous: ["member", "billing"] }])

    let tries = 0
    const always: Store = { ...store, update: async (model, where, values) => (model.name === memberModel.name ? (tries++, 0) : store.update(model, where, values)) }
    expect(await w.orgs.provisionRoles(contextOf(w, always), { organizationId: org.id, userId: cy.id, actorId, remove: ["admin"] })).toEqual({ outcome: "conflict" })
    expect(tries).toBe(3)
    expect(w.events).toHaveLength(1)
  })
})

describe("forgetDeparture, then join", () => {
  it("takes away only the departure noted at the instant named, and join names the actor it is given (the user by default)", async () => {
    const { w, cy, org, context } = await staff()
    const done = await w.orgs.deprovision(context, { organizationId: org.id, userId: cy.id, actorId })
    const at = (done as { at: Date }).at

    // Another instant (a later departure: they left, or an admin removed them): it stays, and keeps them out.
    expect(await w.orgs.forgetDeparture(context, { organizationId: org.id, userId: cy.id, at: new Date(at.getTime() - 1000) })).toBe(false)
    expect(await departureOf(w, org.id, cy.id)).not.toBeNull()
    expect(await w.orgs.join(context, { organizationId: org.id, userId: cy.id, roles: ["member"], actorId })).toEqual({ outcome: "departed" })

    expect(await w.orgs.forgetDeparture(context, { organizationId: org.id, userId: cy.id, at })).toBe(true)
    expect(await departureOf(w, org.id, cy.id)).toBeNull()
    const joined = await w.orgs.join(context, { organizationId: org.id, userId: cy.id, roles: ["member", "owner"], actorId })
    expect(joined).toEqual({ outcome: "added", memberId: expect.any(String), roles: ["member"] })
    expect(w.events.at(-1)).toEqual({ type: "member.added", organizationId: org.id, actorId, memberId: (joined as { memberId: string }).memberId, userId: cy.id, roles: ["member"] })

    const eve = await w.user("eve@example.com")
    await w.orgs.join(context, { organizationId: org.id, userId: eve.id, roles: ["member"] })
    expect(w.events.at(-1)).toMatchObject({ type: "member.added", actorId: eve.id, userId: eve.id })
  })
})
