/**
 * Verified domains against a real DNS server (dnsmasq on a loopback port, see dns.ts): adding a
 * domain shows the TXT record to publish, verifying looks it up, and users with a proven address
 * at a proven domain join by themselves when the organization turns that on. Each rule beside the
 * attack that tries to walk around it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { domainModel, memberModel, OrganizationError, type DomainOptions } from "@sesame/organizations"
import { resolveDomainOptions } from "../src/domains.js"
import { freePort } from "@sesame/testing"
import { dnsServer, type DnsServer, type TxtRecords } from "./dns.js"
import { makeWorld, tokenOf } from "./world.js"

type World = ReturnType<typeof makeWorld>
type Who = Awaited<ReturnType<World["user"]>>

let dns: DnsServer
beforeAll(async () => {
  dns = await dnsServer()
})
afterAll(async () => {
  await dns?.stop()
})

/** The world (world.ts) asking `servers` for its domains (default: the test's dnsmasq). */
function domainWorld(options: DomainOptions = {}): World {
  return makeWorld({ domains: { resolver: { servers: dns.servers }, ...options } })
}

/** Adds `domain` to `org` as `who`; the answer's body. */
async function add(who: Who, org: { id: string }, domain: string) {
  const added = await who.post("organization/domains/add", { organizationId: org.id, domain })
  expect(added.status, JSON.stringify(added.body)).toBe(200)
  return added.body as { id: string; domain: string; record: { name: string; value: string }; verified: boolean }
}

/** Publishes `records` (restarting dnsmasq with them). */
const publish = (...records: { name: string; value: string }[]) => dns.serve(Object.fromEntries(records.map((r) => [r.name, r.value])) as TxtRecords)

/** Whether `who` is a member of `org`, and with which roles, as the store says. */
async function rolesOf(w: World, org: { id: string }, who: { id: string }): Promise<string[] | null> {
  const row = await w.adapter.store!.findOne(memberModel, { organizationId: org.id, userId: who.id })
  return row ? (row.roles as string[]) : null
}

/** An organization of `owner` with `domain` added, published and verified. */
async function verified(w: World, owner: Who, name: string, domain: string) {
  const org = await w.organization(owner, name)
  const added = await add(owner, org, domain)
  await publish(added.record)
  expect((await owner.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })).status).toBe(200)
  return { org, domain: added }
}

describe("verified domains", () => {
  it("adding shows the TXT record to publish; any member lists it; adding it again answers the same", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    await w.join(ada, org, bob, ["member"])
    const added = await add(ada, org, "  Acme.TEST ")
    expect(added).toMatchObject({ domain: "acme.test", verified: false, record: { type: "TXT", name: "_sesame-verification.acme.test" } })
    expect(added.record.value).toMatch(/^sesame-verification=[A-Za-z0-9_-]{32}$/)
    expect((await add(ada, org, "acme.test")).id).toBe(added.id)
    const listed = await bob.get("organization/domains", { organizationId: org.id })
    expect(listed).toMatchObject({ status: 200, body: [{ id: added.id, domain: "acme.test", verified: false, autoJoin: false, joinRoles: ["member"], record: added.record }] })
    expect(w.events.filter((e) => (e.type as string).startsWith("domain."))).toEqual([{ type: "domain.added", organizationId: org.id, actorId: ada.id, domainId: added.id, domain: "acme.test" }])
    // The server functions are the same actions.
    expect(await ada.api("listDomains", org.id)).toEqual([expect.objectContaining({ id: added.id })])
    expect(await ada.api("addDomain", org.id, "other.test")).toMatchObject({ domain: "other.test", verified: false })
  })

  it("refuses what is not a domain name: single labels, IPs, trailing dots, bad labels, non-ASCII, objects", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const bad = ["com", "localhost", "acme.test.", "127.0.0.1", "::1", "[::1]", "-acme.test", "acme-.test", "a..test", `${"x".repeat(64)}.test`, `${"a.".repeat(127)}test`, "münchen.de", "acme.test/x", "a b.test", "*.acme.test", "_dmarc.acme.test", "ada@acme.test", "", { $ne: null }, ["acme.test"], 1]
    for (const domain of bad) {
      expect(await ada.post("organization/domains/add", { organizationId: org.id, domain }), JSON.stringify(domain)).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    }
    expect((await add(ada, org, "xn--mnchen-3ya.de")).domain).toBe("xn--mnchen-3ya.de")
  })

  it("verifying fails (400 JSON, naming the record) until the record is there with its value, then succeeds", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const added = await add(ada, org, "acme.test")
    const verify = () => ada.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })
    await publish() // no record at all: NXDOMAIN
    const missing = await verify()
    expect(missing).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    expect(missing.body.message).toContain("The TXT record _sesame-verification.acme.test")
    expect(missing.body.message).toContain(added.record.value)
    await publish({ name: added.record.name, value: "sesame-verification=someone-elses-token" }) // there, with another value
    expect(await verify()).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    await publish({ name: `_sesame-verification.other.test`, value: added.record.value }) // the value, at another name
    expect(await verify()).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    expect((await ada.get("organization/domains", { organizationId: org.id })).body[0].verified).toBe(false)

    await publish(added.record)
    const done = await verify()
    expect(done).toMatchObject({ status: 200, body: { id: added.id, verified: true, verifiedAt: expect.any(String) } })
    expect(await verify()).toMatchObject({ status: 200, body: { verified: true } })
    expect(w.events.filter((e) => (e.type as string) === "domain.verified")).toEqual([{ type: "domain.verified", organizationId: org.id, actorId: ada.id, domainId: added.id, domain: "acme.test" }])
  })

  it("a record split in character-strings counts with its chunks joined; other TXT records beside it do not matter", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const added = await add(ada, org, "acme.test")
    const token = added.record.value.slice("sesame-verification=".length)
    await dns.serve({ [added.record.name]: ["sesame-verification=", token.slice(0, 10), token.slice(10)] })
    expect(await ada.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })).toMatchObject({ status: 200, body: { verified: true } })
  })

  it("DNS that does not answer is a 400, never a 500 (the lookup's timeout and tries are bounded in domains.ts)", async () => {
    const w = domainWorld({ resolver: { servers: [`127.0.0.1:${await freePort()}`] } })
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const added = await add(ada, org, "acme.test")
    const answer = await ada.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })
    expect(answer).toMatchObject({ status: 400, body: { error: "InvalidInput", message: expect.stringContaining("was not found") } })
  })

  it("a custom record prefix names the record; bad options are a TypeError when the configuration is written", async () => {
    const w = domainWorld({ recordPrefix: "_acme-challenge.org" })
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    const added = await add(ada, org, "acme.test")
    expect(added.record.name).toBe("_acme-challenge.org.acme.test")
    await publish(added.record)
    expect((await ada.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })).status).toBe(200)
    for (const bad of [{ resolver: { servers: [] } }, { resolver: { servers: ["not an address"] } }, { resolver: "8.8.8.8" }, { recordPrefix: "has space" }, { recordPrefix: "" }, { recordPrefix: "a..b" }]) {
      expect(() => resolveDomainOptions(bad as never), JSON.stringify(bad)).toThrow(TypeError)
    }
    expect(resolveDomainOptions()).toEqual({ servers: undefined, recordPrefix: "_sesame-verification" })
  })

  it("a domain verified by one organization cannot be verified by another, even with its own record published; once removed, it can", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const acme = await w.organization(ada, "Acme")
    const evil = await w.organization(eve, "Evil")
    const mine = await add(ada, acme, "acme.test")
    const theirs = await add(eve, evil, "acme.test") // before Acme verifies: adding is allowed
    expect(theirs.record.value).not.toBe(mine.record.value)
    // Both records are there (Eve got hers published somehow): the first to verify wins.
    await dns.serve({ [mine.record.name]: [mine.record.value] })
    expect((await ada.post("organization/domains/verify", { organizationId: acme.id, domainId: mine.id })).status).toBe(200)
    await dns.serve({ [mine.record.name]: [theirs.record.value] })
    expect(await eve.post("organization/domains/verify", { organizationId: evil.id, domainId: theirs.id })).toMatchObject({ status: 409, body: { error: "DomainTaken" } })
    expect(await eve.post("organization/domains/add", { organizationId: evil.id, domain: "ACME.test" })).toMatchObject({ status: 200, body: { id: theirs.id, verified: false } })
    // A third organization cannot even add it now.
    const zed = await w.user("zed@example.com")
    const other = await w.organization(zed, "Other")
    expect(await zed.post("organization/domains/add", { organizationId: other.id, domain: "acme.test" })).toMatchObject({ status: 409, body: { error: "DomainTaken" } })
    // Acme lets it go: Evil may verify it now (its record is the one published).
    expect((await ada.post("organization/domains/remove", { organizationId: acme.id, domainId: mine.id })).status).toBe(204)
    expect((await ada.get("organization/domains", { organizationId: acme.id })).body).toEqual([])
    expect(await eve.post("organization/domains/verify", { organizationId: evil.id, domainId: theirs.id })).toMatchObject({ status: 200, body: { verified: true } })
    expect(w.events.filter((e) => (e.type as string) === "domain.removed")).toEqual([{ type: "domain.removed", organizationId: acme.id, actorId: ada.id, domainId: mine.id, domain: "acme.test" }])
  })

  it("two organizations verifying at once: one wins, the other is refused (the store's unique value decides)", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const acme = await w.organization(ada, "Acme")
    const evil = await w.organization(eve, "Evil")
    const a = await add(ada, acme, "acme.test")
    const b = await add(eve, evil, "acme.test")
    await dns.serve({ [a.record.name]: [a.record.value], "x.acme.test": ["unused"] })
    // Both rows marked as if both had passed the DNS check: the second write must fail.
    const store = w.adapter.store!
    await store.update(domainModel, { id: a.id }, { verifiedAt: new Date(), verifiedDomain: "acme.test" })
    await expect(store.update(domainModel, { id: b.id }, { verifiedAt: new Date(), verifiedDomain: "acme.test" })).rejects.toThrow()
    expect(await ada.post("organization/domains/verify", { organizationId: acme.id, domainId: a.id })).toMatchObject({ status: 200, body: { verified: true } })
    expect(await eve.post("organization/domains/verify", { organizationId: evil.id, domainId: b.id })).toMatchObject({ status: 409, body: { error: "DomainTaken" } })
  })

  it("a member without organization:update gets 403 for every change, and may list", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const org = await w.organization(ada, "Acme")
    await w.join(ada, org, bob, ["member", "billing"])
    const added = await add(ada, org, "acme.test")
    const forbidden = { status: 403, body: { error: "Forbidden" } }
    expect(await bob.post("organization/domains/add", { organizationId: org.id, domain: "bob.test" })).toMatchObject(forbidden)
    expect(await bob.post("organization/domains/verify", { organizationId: org.id, domainId: added.id })).toMatchObject(forbidden)
    expect(await bob.post("organization/domains/auto-join", { organizationId: org.id, domainId: added.id, autoJoin: true })).toMatchObject(forbidden)
    expect(await bob.post("organization/domains/remove", { organizationId: org.id, domainId: added.id })).toMatchObject(forbidden)
    await expect(bob.api("removeDomain", org.id, added.id)).rejects.toMatchObject({ code: "Forbidden" })
    expect(await bob.get("organization/domains", { organizationId: org.id })).toMatchObject({ status: 200, body: [{ id: added.id }] })
    const visitor = new w.Browser()
    expect(await visitor.get("organization/domains", { organizationId: org.id })).toMatchObject({ status: 401 })
    expect((await ada.get("organization/domains", { organizationId: org.id })).body).toHaveLength(1)
  })

  it("another organization's ids are 404: its organization, and its domain named with one's own organization", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const eve = await w.user("eve@example.com")
    const acme = await w.organization(ada, "Acme")
    const evil = await w.organization(eve, "Evil")
    const added = await add(ada, acme, "acme.test")
    const notFound = { status: 404, body: { error: "NotFound" } }
    expect(await eve.get("organization/domains", { organizationId: acme.id })).toMatchObject(notFound)
    expect(await eve.post("organization/domains/add", { organizationId: acme.id, domain: "evil.test" })).toMatchObject(notFound)
    for (const path of ["verify", "remove"]) {
      expect(await eve.post(`organization/domains/${path}`, { organizationId: acme.id, domainId: added.id }), path).toMatchObject(notFound)
      expect(await eve.post(`organization/domains/${path}`, { organizationId: evil.id, domainId: added.id }), path).toMatchObject(notFound)
    }
    expect(await eve.post("organization/domains/auto-join", { organizationId: evil.id, domainId: added.id, autoJoin: false })).toMatchObject(notFound)
    expect(await eve.post("organization/domains/verify", { organizationId: evil.id, domainId: { $ne: null } })).toMatchObject({ status: 400 })
    expect((await ada.get("organization/domains", { organizationId: acme.id })).body).toHaveLength(1)
  })

  it("auto-join is off by default: a proven address at a verified domain does not join until it is turned on", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    const early = await w.user("early@acme.test")
    expect(await rolesOf(w, org, early)).toBeNull()
    expect(await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true, roles: ["billing"] })).toMatchObject({ status: 200, body: { autoJoin: true, joinRoles: ["billing"] } })
    // The next sign-in of the same user joins them.
    await early.signIn()
    expect(await rolesOf(w, org, early)).toEqual(["billing"])
  })

  it("with auto-join on, a user who signs in with a proven address at the domain joins with its roles, once", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    expect((await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true })).body).toMatchObject({ autoJoin: true, joinRoles: ["member"] })
    const cy = await w.user("Cy@ACME.test")
    expect(await rolesOf(w, org, cy)).toEqual(["member"])
    const joined = w.events.filter((e) => e.type === "member.added")
    expect(joined).toEqual([{ type: "member.added", organizationId: org.id, actorId: cy.id, memberId: expect.any(String), userId: cy.id, roles: ["member"] }])
    await cy.signIn()
    expect(await w.adapter.store!.count(memberModel, { organizationId: org.id, userId: cy.id })).toBe(1)
    expect(w.events.filter((e) => e.type === "member.added")).toHaveLength(1)
    // They see it as their organization.
    expect((await cy.get("organization/list")).body).toEqual([expect.objectContaining({ id: org.id, roles: ["member"] })])
    // A member whose roles were changed since keeps them at their next sign-in.
    const dee = await w.user("dee@acme.test")
    await ada.post("organization/members/roles", { organizationId: org.id, memberId: (await w.adapter.store!.findOne(memberModel, { organizationId: org.id, userId: dee.id }))!.id, roles: ["admin"] })
    await dee.signIn()
    expect(await rolesOf(w, org, dee)).toEqual(["admin"])
  })

  it("a member removed, or who left, does not come back by auto-join at the next sign-in; an invitation brings them back", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true })
    const cy = await w.user("cy@acme.test")
    const dee = await w.user("dee@acme.test")
    const memberOf = async (who: { id: string }) => (await w.adapter.store!.findOne(memberModel, { organizationId: org.id, userId: who.id }))!.id
    expect((await ada.post("organization/members/remove", { organizationId: org.id, memberId: await memberOf(cy) })).status).toBe(204)
    expect((await dee.post("organization/leave", { organizationId: org.id })).status).toBe(204)
    await cy.signIn()
    await dee.signIn()
    expect(await rolesOf(w, org, cy)).toBeNull()
    expect(await rolesOf(w, org, dee)).toBeNull()
    // Invited back and accepted: a member again, and a later removal holds as the first did.
    await ada.post("organization/invitations/create", { organizationId: org.id, email: "cy@acme.test" })
    expect((await cy.post("organization/invitations/accept", { token: tokenOf(w.sent.at(-1)!) })).status).toBe(200)
    expect(await rolesOf(w, org, cy)).toEqual(["member"])
    expect((await ada.post("organization/members/remove", { organizationId: org.id, memberId: await memberOf(cy) })).status).toBe(204)
    await cy.signIn()
    expect(await rolesOf(w, org, cy)).toBeNull()
  })

  it("an unproven address, a subdomain, a lookalike domain, or a domain only added do not join", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true })
    const unproven = await w.user("mallory@acme.test", { verified: false })
    const sub = await w.user("sam@sub.acme.test")
    const suffix = await w.user("sue@acme.test.evil.test")
    const lookalike = await w.user("lou@evilacme.test")
    const quoted = await w.user('"x@acme.test"@evil.test')
    for (const who of [unproven, sub, suffix, lookalike, quoted]) expect(await rolesOf(w, org, who), who.email).toBeNull()
    // An organization that only added a domain (not verified) cannot turn auto-join on for it.
    const eve = await w.user("eve@example.com")
    const evil = await w.organization(eve, "Evil")
    const claimed = await add(eve, evil, "other.test")
    expect(await eve.post("organization/domains/auto-join", { organizationId: evil.id, domainId: claimed.id, autoJoin: true })).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    const victim = await w.user("vic@other.test")
    expect(await rolesOf(w, evil, victim)).toBeNull()
    // Nor can it capture users of a domain another organization verified: its row stays unverified.
    expect(await eve.post("organization/domains/add", { organizationId: evil.id, domain: "acme.test" })).toMatchObject({ status: 409, body: { error: "DomainTaken" } })
    const later = await w.user("lee@acme.test")
    expect(await rolesOf(w, org, later)).toEqual(["member"])
    expect(await rolesOf(w, evil, later)).toBeNull()
  })

  it("a user whose address is proven later joins at their next sign-in; turning auto-join off or removing the domain stops it", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true })
    const mo = await w.user("mo@acme.test", { verified: false })
    expect(await rolesOf(w, org, mo)).toBeNull()
    await w.adapter.updateUser!({ id: mo.id, emailVerified: new Date() })
    await mo.signIn()
    expect(await rolesOf(w, org, mo)).toEqual(["member"])

    expect(await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: false })).toMatchObject({ status: 200, body: { autoJoin: false } })
    expect(await rolesOf(w, org, await w.user("off@acme.test"))).toBeNull()
    await ada.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, autoJoin: true })
    await ada.post("organization/domains/remove", { organizationId: org.id, domainId: domain.id })
    expect(await rolesOf(w, org, await w.user("gone@acme.test"))).toBeNull()
  })

  it("auto-join roles: known roles within the actor's own, never owner", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const { org, domain } = await verified(w, ada, "Acme", "acme.test")
    await w.join(ada, org, bob, ["admin"])
    const set = (who: Who, fields: Record<string, unknown>) => who.post("organization/domains/auto-join", { organizationId: org.id, domainId: domain.id, ...fields })
    expect(await set(ada, { autoJoin: true, roles: ["owner"] })).toMatchObject({ status: 403, body: { error: "Forbidden" } })
    expect(await set(ada, { autoJoin: true, roles: ["member", "owner"] })).toMatchObject({ status: 403 })
    expect(await set(ada, { autoJoin: true, roles: ["nope"] })).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
    expect(await set(ada, { autoJoin: true, roles: [] })).toMatchObject({ status: 400 })
    expect(await set(ada, { autoJoin: "yes" })).toMatchObject({ status: 400 })
    // An admin cannot give `auditor` (project delete), which their roles do not grant; an owner can.
    expect(await set(bob, { autoJoin: true, roles: ["auditor"] })).toMatchObject({ status: 403, body: { error: "Forbidden" } })
    expect(await set(bob, { autoJoin: true, roles: ["admin"] })).toMatchObject({ status: 200, body: { joinRoles: ["admin"] } })
    expect(await set(ada, { autoJoin: true, roles: ["auditor"] })).toMatchObject({ status: 200, body: { joinRoles: ["auditor"] } })
    // Turning it off keeps the roles, and anyone with organization:update may do it.
    expect(await set(bob, { autoJoin: false })).toMatchObject({ status: 200, body: { autoJoin: false, joinRoles: ["auditor"] } })
    expect(await set(ada, { autoJoin: "true" })).toMatchObject({ status: 200, body: { autoJoin: true } })
    // A role stored by hand that the configuration does not define (or owner) is not given at sign-in.
    await w.adapter.store!.update(domainModel, { id: domain.id }, { joinRoles: ["owner", "ghost", "billing"] })
    expect(await rolesOf(w, org, await w.user("new@acme.test"))).toEqual(["billing"])
    await w.adapter.store!.update(domainModel, { id: domain.id }, { joinRoles: ["owner"] })
    expect(await rolesOf(w, org, await w.user("newer@acme.test"))).toBeNull()
  })

  it("the server functions throw OrganizationError", async () => {
    const w = domainWorld()
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    await expect(ada.api("addDomain", org.id, "com")).rejects.toBeInstanceOf(OrganizationError)
    const added = await ada.api("addDomain", org.id, "acme.test")
    await publish()
    await expect(ada.api("verifyDomain", org.id, added.id)).rejects.toMatchObject({ code: "InvalidInput", status: 400 })
    await publish(added.record)
    expect(await ada.api("verifyDomain", org.id, added.id)).toMatchObject({ verified: true })
    expect(await ada.api("setDomainAutoJoin", org.id, added.id, true, ["member"])).toMatchObject({ autoJoin: true })
    expect(await ada.api("removeDomain", org.id, added.id)).toBeUndefined()
  })
})
