/**
 * Invitations: the legitimate flow (invite, mail, preview, accept), and each way to take a seat
 * that is not one's own: another signed-in user, an unproven address, a replayed, cancelled,
 * resent or expired link, two accepts at once.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { invitationModel } from "@sesame/organizations"
import { makeWorld, tokenOf } from "./world.js"

afterEach(() => vi.useRealTimers())

async function invited(roles = ["admin"]) {
  const w = makeWorld()
  const ada = await w.user("ada@example.com")
  const org = await w.organization(ada, "Acme")
  const created = await ada.post("organization/invitations/create", { organizationId: org.id, email: " Bob@Example.com ", roles })
  expect(created).toMatchObject({ status: 200, body: { email: "bob@example.com", roles, sends: 1 } })
  return { w, ada, org, invitation: created.body, message: w.sent.at(-1)!, token: tokenOf(w.sent.at(-1)!) }
}

describe("an invitation", () => {
  it("is mailed with a link to the app's page; its invitee previews it, accepts, and becomes a member with its roles", async () => {
    const { w, ada, org, message, token } = await invited()
    expect(message).toMatchObject({ email: "bob@example.com", organization: { id: org.id, name: "Acme", slug: "acme" }, invitedBy: { email: "ada@example.com" }, roles: ["admin"], send: 1 })
    expect(message.url).toMatch(/^http:\/\/localhost:3000\/invite\?token=[A-Za-z0-9_-]{43}$/)
    const visitor = new w.Browser()
    expect((await visitor.get("organization/invitations/preview", { token })).body).toMatchObject({ organization: { name: "Acme" }, email: "bob@example.com", acceptable: false, reason: "NotSignedIn" })
    const bob = await w.user("bob@example.com")
    expect((await bob.get("organization/invitations/received")).body).toEqual([expect.objectContaining({ email: "bob@example.com", organization: expect.objectContaining({ name: "Acme" }) })])
    expect((await bob.get("organization/invitations/preview", { token })).body).toMatchObject({ acceptable: true })
    const accepted = await bob.post("organization/invitations/accept", { token })
    expect(accepted).toMatchObject({ status: 200, body: { organizationId: org.id, roles: ["admin"] } })
    expect((await bob.get("organization/list")).body).toEqual([expect.objectContaining({ id: org.id, roles: ["admin"] })])
    expect((await ada.get("organization/invitations", { organizationId: org.id })).body).toEqual([])
    expect(w.events.map((e) => e.type)).toEqual(["organization.created", "invitation.created", "invitation.accepted", "member.added"])
  })

  it("only the token's hash is stored", async () => {
    const { w, token } = await invited()
    const [row] = await w.adapter.store!.findMany(invitationModel)
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it("another signed-in user cannot accept it (nor decline it), and it stays for its invitee", async () => {
    const { w, token } = await invited()
    const eve = await w.user("eve@example.com")
    expect(await eve.post("organization/invitations/accept", { token })).toMatchObject({ status: 403, body: { error: "WrongAccount" } })
    expect(await eve.post("organization/invitations/decline", { token })).toMatchObject({ status: 403, body: { error: "WrongAccount" } })
    expect((await eve.get("organization/list")).body).toEqual([])
    const bob = await w.user("bob@example.com")
    expect((await bob.post("organization/invitations/accept", { token })).status).toBe(200)
  })

  it("an account whose address is not proven cannot accept it; once proven, it can", async () => {
    const { w, token } = await invited()
    const squatter = await w.user("bob@example.com", { verified: false })
    expect(await squatter.post("organization/invitations/accept", { token })).toMatchObject({ status: 403, body: { error: "EmailUnverified" } })
    expect((await squatter.get("organization/invitations/received")).body).toEqual([])
    await w.adapter.updateUser!({ id: squatter.id, emailVerified: new Date() })
    expect((await squatter.post("organization/invitations/accept", { token })).status).toBe(200)
  })

  it("works once: replayed after it was accepted, it is refused", async () => {
    const { w, token } = await invited()
    const bob = await w.user("bob@example.com")
    expect((await bob.post("organization/invitations/accept", { token })).status).toBe(200)
    expect(await bob.post("organization/invitations/accept", { token })).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
  })

  it("two accepts at once: exactly one makes a member", async () => {
    const { w, ada, org, token } = await invited()
    const bob = await w.user("bob@example.com")
    const phone = await new w.Browser("bob@example.com").signIn()
    const results = await Promise.all([bob.post("organization/invitations/accept", { token }), phone.post("organization/invitations/accept", { token })])
    expect(results.map((r) => r.status).sort()).toEqual([200, 404])
    expect((await ada.get("organization/members", { organizationId: org.id })).body).toHaveLength(2)
  })

  it("cancelled, it is refused; declined by its invitee, too", async () => {
    const { w, ada, org, invitation, token } = await invited()
    expect((await ada.post("organization/invitations/cancel", { organizationId: org.id, invitationId: invitation.id })).status).toBe(204)
    const bob = await w.user("bob@example.com")
    expect(await bob.post("organization/invitations/accept", { token })).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
    await ada.post("organization/invitations/create", { organizationId: org.id, email: "bob@example.com" })
    const second = tokenOf(w.sent.at(-1)!)
    expect((await bob.post("organization/invitations/decline", { token: second })).status).toBe(204)
    expect(await bob.post("organization/invitations/accept", { token: second })).toMatchObject({ status: 404 })
  })

  it("expires: after `expiresIn` its link is refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { w, token } = await invited()
    const bob = await w.user("bob@example.com")
    vi.setSystemTime(Date.now() + 7 * 24 * 3600_000 + 1000)
    await bob.signIn()
    expect(await bob.post("organization/invitations/accept", { token })).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
  })

  it("resent, it gets a new link and the old one stops working; up to maxSends in all", async () => {
    const { w, ada, org, invitation, token } = await invited()
    const resent = await ada.post("organization/invitations/resend", { organizationId: org.id, invitationId: invitation.id })
    expect(resent).toMatchObject({ status: 200, body: { sends: 2 } })
    const fresh = tokenOf(w.sent.at(-1)!)
    expect(fresh).not.toBe(token)
    expect(w.sent.at(-1)!.send).toBe(2)
    expect(await ada.post("organization/invitations/resend", { organizationId: org.id, invitationId: invitation.id })).toMatchObject({ status: 429, body: { error: "TooManySends" } })
    const bob = await w.user("bob@example.com")
    expect(await bob.post("organization/invitations/accept", { token })).toMatchObject({ status: 404 })
    expect((await bob.post("organization/invitations/accept", { token: fresh })).status).toBe(200)
  })

  it("a member without invitation rights cannot invite, resend, cancel or list; an address with a pending invitation or a member's is refused", async () => {
    const { w, ada, org, invitation } = await invited()
    const cy = await w.user("cy@example.com")
    await w.join(ada, org, cy, ["member"])
    expect(await cy.post("organization/invitations/create", { organizationId: org.id, email: "dan@example.com" })).toMatchObject({ status: 403 })
    expect(await cy.post("organization/invitations/resend", { organizationId: org.id, invitationId: invitation.id })).toMatchObject({ status: 403 })
    expect(await cy.post("organization/invitations/cancel", { organizationId: org.id, invitationId: invitation.id })).toMatchObject({ status: 403 })
    expect(await cy.get("organization/invitations", { organizationId: org.id })).toMatchObject({ status: 403 })
    expect(await ada.post("organization/invitations/create", { organizationId: org.id, email: "bob@example.com" })).toMatchObject({ status: 409, body: { error: "AlreadyInvited" } })
    expect(await ada.post("organization/invitations/create", { organizationId: org.id, email: "cy@example.com" })).toMatchObject({ status: 409, body: { error: "AlreadyMember" } })
  })

  it("an admin cannot resend or cancel an invitation with roles beyond their own", async () => {
    const { w, ada, org } = await invited(["owner"])
    const ownerInvitation = (await ada.get("organization/invitations", { organizationId: org.id })).body[0]
    const bob = await w.user("admin@example.com")
    await w.join(ada, org, bob, ["admin"])
    expect(await bob.post("organization/invitations/resend", { organizationId: org.id, invitationId: ownerInvitation.id })).toMatchObject({ status: 403 })
  })

  it("a mailer that fails leaves no invitation behind", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const original = w.sent.push
    w.sent.push = () => {
      throw new Error("SMTP down")
    }
    const failed = await ada.post("organization/invitations/create", { organizationId: org.id, email: "bob@example.com" })
    w.sent.push = original
    expect(failed).toMatchObject({ status: 502, body: { error: "SendFailed" } })
    expect(await w.adapter.store!.count(invitationModel)).toBe(0)
    expect((await ada.post("organization/invitations/create", { organizationId: org.id, email: "bob@example.com" })).status).toBe(200)
  })

  it("a malformed token is refused like an unknown one", async () => {
    const { w } = await invited()
    const bob = await w.user("bob@example.com")
    for (const token of ["", "x", "a".repeat(43), "a".repeat(2000), 42]) {
      expect(await bob.post("organization/invitations/accept", { token }), String(token)).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
    }
  })
})
