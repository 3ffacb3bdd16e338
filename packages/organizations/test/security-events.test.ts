/**
 * Membership changes as security events (`events.ts`, beside `onChange`): what an audit log
 * records of who belongs to an organization, once per change, with who made it and whom it is
 * about, and without the invited address or the invitation's token.
 */
import type { SecurityEvent } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { acmeWithStaff, tokenOf } from "./world.js"

describe("an organization's membership changes", () => {
  it("are security events, once each, prefixed `organization.`, naming the actor and the member", async () => {
    const seen: SecurityEvent[] = []
    const { w, ada, bob, cy, org, bobId, cyId } = await acmeWithStaff({ onSecurityEvent: (event) => void seen.push(event) })
    const ofOrg = () => seen.filter((e) => e.type.startsWith("organization."))
    expect(ofOrg().map((e) => e.type)).toEqual([
      "organization.created",
      "organization.invitation.created",
      "organization.invitation.accepted",
      "organization.member.added",
      "organization.invitation.created",
      "organization.invitation.accepted",
      "organization.member.added",
    ])
    expect(ofOrg()[0]).toMatchObject({ actorId: ada.id, userId: ada.id, details: { organizationId: org.id } })
    expect(ofOrg()[3]).toMatchObject({ actorId: bob.id, userId: bob.id, details: { organizationId: org.id, memberId: bobId, roles: ["admin"] } })
    expect(ofOrg()[1]).toMatchObject({ actorId: ada.id, userId: null, details: { roles: ["admin"] } })

    const before = seen.length
    expect((await ada.post("organization/members/roles", { organizationId: org.id, memberId: cyId, roles: ["billing"] })).status).toBe(200)
    expect((await ada.post("organization/members/remove", { organizationId: org.id, memberId: bobId })).status).toBe(204)
    expect((await cy.post("organization/leave", { organizationId: org.id })).status).toBe(204)
    expect(seen.slice(before)).toMatchObject([
      { type: "organization.member.roles-changed", actorId: ada.id, userId: cy.id, details: { memberId: cyId, roles: ["billing"], previous: ["member"] } },
      { type: "organization.member.removed", actorId: ada.id, userId: bob.id, details: { memberId: bobId } },
      { type: "organization.member.left", actorId: cy.id, userId: cy.id, details: { memberId: cyId } },
    ])
    // Names and ids only: never the invited address or the invitation's token.
    const text = JSON.stringify(seen)
    for (const message of w.sent) {
      expect(text).not.toContain(tokenOf(message))
      expect(text).not.toContain(message.email)
    }
    // onChange is told as before.
    expect(w.events.map((e) => e.type)).toContain("member.left")
  })
})
