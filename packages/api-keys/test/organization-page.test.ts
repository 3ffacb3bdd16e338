/**
 * The organization's keys on the organizations module's page of one organization (the place
 * `organization.manage`): shown with their forms to those who may manage them (owners and admins),
 * to nobody else; the forms come back to that page, and to no other address.
 */
import { describe, expect, it } from "vitest"
import { acme, keyIn, makeWorld, origin } from "./world.js"

const page = async (who: { send(path: string, init?: { query?: Record<string, string> }): Promise<Response> }, organizationId: string) => {
  const response = await who.send("organization/manage", { query: { organizationId } })
  expect(response.status).toBe(200)
  return response.text()
}

describe("the organization's page", () => {
  it("shows an admin the organization's keys and a form that makes one; the forms come back to the page", async () => {
    const world = makeWorld({ organizations: true })
    const { bob, org } = await acme(world)
    const returnTo = `${origin}/auth/organization/manage?organizationId=${encodeURIComponent(org.id)}`
    const before = await page(bob, org.id)
    expect(before).toContain("The organization&#39;s API keys")
    expect(before).toContain("The organization has no API keys.")
    expect(before).toContain(`name="organizationId" value="${org.id}"`)

    const made = await bob.form("api-keys/create", { name: "Acme CI", "scope.read": "on", expiresInDays: "30", organizationId: org.id, returnTo })
    expect(made.status).toBe(200)
    const key = keyIn(made.text)!
    expect(made.text).toContain(`href="${returnTo.replaceAll("&", "&amp;")}"`)
    expect(await world.bearer(key)).toMatchObject({ organizationId: org.id, userId: null, scopes: ["read"] })

    const listed = await page(bob, org.id)
    expect(listed).toContain("Acme CI")
    expect(listed).not.toContain(key)
    const [info] = await bob.api("listApiKeys", { organizationId: org.id })
    const revoked = await bob.form("api-keys/revoke", { keyId: info.id, returnTo })
    expect(revoked).toMatchObject({ status: 302, location: returnTo })
    expect(await world.bearer(key)).toBeNull()
  })

  it("shows a member who may not manage the keys nothing of them, and the account page stays each user's own", async () => {
    const world = makeWorld({ organizations: true })
    const { bob, cy, org } = await acme(world)
    await bob.api("createApiKey", { name: "Acme CI", organizationId: org.id })
    const seen = await page(cy, org.id)
    expect(seen).toContain(org.id)
    expect(seen).not.toContain("API keys")
    expect(seen).not.toContain("Acme CI")
    const account = await (await cy.send("account")).text()
    expect(account).not.toContain("Acme CI")
  })

  it("a form's way back is one of the app's pages under the base path, never another origin or path", async () => {
    const world = makeWorld({ organizations: true })
    const { bob, org } = await acme(world)
    for (const returnTo of ["https://evil.example/auth/organization/manage", `${origin}/elsewhere`, `${origin}/auth//evil.example`, "javascript:alert(1)", "/auth/organization"]) {
      const made = await bob.api("createApiKey", { name: "k", organizationId: org.id })
      const revoked = await bob.form("api-keys/revoke", { keyId: made.id, returnTo })
      expect(revoked, returnTo).toMatchObject({ status: 302, location: `${origin}/auth/account` })
    }
  })

  it("a member demoted loses the section at once", async () => {
    const world = makeWorld({ organizations: true })
    const { ada, bob, org, bobMember } = await acme(world)
    expect(await page(bob, org.id)).toContain("The organization&#39;s API keys")
    expect((await ada.post("organization/members/roles", { organizationId: org.id, memberId: bobMember, roles: ["member"] })).status).toBe(200)
    expect(await page(bob, org.id)).not.toContain("The organization&#39;s API keys")
  })
})
