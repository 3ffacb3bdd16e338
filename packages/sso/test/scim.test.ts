/**
 * SCIM 2.0 provisioning, with requests shaped as Okta's and Entra ID's documented ones: a
 * connection's token made by the organization's admin; users looked up, created (linked), changed,
 * deactivated (membership and sessions gone), reactivated and deleted; groups giving the role of
 * their name; each of those changes reported to the app's `onChange` by `scim:<connection id>`,
 * and nothing when nothing changes. The attacks: no, wrong or revoked token; a browser's session; one organization's
 * token reaching another's users; an address at a domain the organization did not prove; a member
 * making a token; filters beyond `eq`; an oversized body.
 */
import { Auth, type ModuleServiceContext } from "@sesame/core"
import { departureModel, memberModel } from "@sesame/organizations"
import { describe, expect, it } from "vitest"
import { resolveSsoOptions } from "../src/options.js"
import { scimTokenModel, scimUserModel } from "../src/scim/models.js"
import { scimService } from "../src/scim/service.js"
import { sso } from "../src/index.js"
import { makeWorld } from "../../organizations/test/world.js"
import { clientSecret, origin, proveDomain, ssoWorld, type World } from "./world.js"

const oidc = { protocol: "oidc", name: "Acme IdP", issuer: "http://127.0.0.1:9/", clientId: "acme-app", clientSecret }
const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User"
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"

interface Answer {
  status: number
  headers: Headers
  body: any
}

/** A SCIM request as an identity provider sends it: the token as a bearer, JSON as `application/scim+json`. */
async function scim(w: World, token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const request = new Request(`${origin}/auth/sso/scim/v2/${path}`, {
    method,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/scim+json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  })
  const response = await Auth(request, w.config)
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}

/** Okta's `POST /Users` (its SCIM 2.0 guide), for `email`. */
function oktaUser(email: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [userSchema],
    userName: email,
    name: { givenName: "Grace", familyName: "Hopper" },
    emails: [{ primary: true, value: email, type: "work" }],
    displayName: "Grace Hopper",
    locale: "en-US",
    externalId: "00ujl29u0le5T6Aj10h7",
    groups: [],
    password: "1mz050nq",
    active: true,
    ...extra,
  }
}

const entraActive = (value: "True" | "False") => ({ schemas: [patchOp], Operations: [{ op: "Replace", path: "active", value }] })

/** A module context's sealing that opens anything: the SCIM service seals nothing. */
const sealing: ModuleServiceContext["sealing"] = { seal: async (_purpose, value) => value, open: async (_purpose, value) => ({ value, rotated: false }) }

const filterQuery = (filter: string, extra = "") => `Users?filter=${encodeURIComponent(filter)}${extra}`

/** Acme (Ada owns it, Bob admin, Cy member; acme.test proven) and Globex (Gil; globex.test proven), each with a connection and a SCIM token. */
async function acmeAndGlobex() {
  const w = ssoWorld()
  const ada = await w.user("ada@example.com")
  const bob = await w.user("bob@example.com")
  const cy = await w.user("cy@example.com")
  const gil = await w.user("gil@example.com")
  const acme = await w.organization(ada, "Acme")
  const globex = await w.organization(gil, "Globex")
  await w.join(ada, acme, bob, ["admin"])
  await w.join(ada, acme, cy, ["member"])
  await proveDomain(w, acme.id, "acme.test")
  await proveDomain(w, globex.id, "globex.test")
  const acmeConnection = await ada.api("createConnection", acme.id, oidc)
  const globexConnection = await gil.api("createConnection", globex.id, { ...oidc, name: "Globex IdP" })
  const acmeToken = (await bob.api("createScimToken", acme.id, acmeConnection.id)).token as string
  const globexToken = (await gil.api("createScimToken", globex.id, globexConnection.id)).token as string
  return { w, ada, bob, cy, gil, acme, globex, acmeConnection, globexConnection, acmeToken, globexToken }
}

async function rolesIn(admin: { api(name: string, ...args: unknown[]): Promise<any> }, organizationId: string): Promise<Record<string, string[]>> {
  const members = (await admin.api("listMembers", organizationId)) as { user: { email: string }; roles: string[] }[]
  return Object.fromEntries(members.map((m) => [m.user.email, m.roles]))
}

describe("a connection's SCIM token", () => {
  it("is made by the organization's admin, shown once, stored as a hash, replaced by a new one, and revoked", async () => {
    const { w, ada, acme, acmeConnection, acmeToken } = await acmeAndGlobex()
    expect(acmeToken).toMatch(/^sesame_scim_[A-Za-z0-9_-]{43}$/)
    const rows = await w.adapter.store!.findMany(scimTokenModel)
    expect(rows).toHaveLength(2)
    expect(JSON.stringify(rows)).not.toContain(acmeToken.slice("sesame_scim_".length))
    expect((await scim(w, acmeToken, "GET", "Users")).status).toBe(200)

    const next = await ada.api("createScimToken", acme.id, acmeConnection.id)
    expect(next).toMatchObject({ createdAt: expect.any(Date), url: `${origin}/auth/sso/scim/v2` })
    expect((await scim(w, acmeToken, "GET", "Users")).status).toBe(401)
    expect((await scim(w, next.token, "GET", "Users")).status).toBe(200)
    expect(await w.adapter.store!.findOne(scimTokenModel, { connectionId: acmeConnection.id })).toMatchObject({ lastUsedAt: expect.any(Date) })

    await ada.api("revokeScimToken", acme.id, acmeConnection.id)
    expect((await scim(w, next.token, "GET", "Users")).status).toBe(401)
  })

  it("is out of reach of a member, of another organization's owner, and of someone signed out", async () => {
    const { w, cy, gil, acme, globex, acmeConnection, acmeToken } = await acmeAndGlobex()
    await expect(cy.api("createScimToken", acme.id, acmeConnection.id)).rejects.toMatchObject({ code: "NotFound" })
    await expect(cy.api("revokeScimToken", acme.id, acmeConnection.id)).rejects.toMatchObject({ code: "NotFound" })
    for (const organizationId of [acme.id, globex.id]) {
      await expect(gil.api("createScimToken", organizationId, acmeConnection.id)).rejects.toMatchObject({ code: "NotFound" })
      await expect(gil.api("revokeScimToken", organizationId, acmeConnection.id)).rejects.toMatchObject({ code: "NotFound" })
    }
    await expect(new w.Browser().api("createScimToken", acme.id, acmeConnection.id)).rejects.toMatchObject({ code: "NotSignedIn" })
    // Acme's token still the one that works.
    expect((await scim(w, acmeToken, "GET", "Users")).status).toBe(200)
    expect(await w.adapter.store!.count(scimTokenModel, { connectionId: acmeConnection.id })).toBe(1)
  })
})

describe("SCIM users", () => {
  it("Okta: looks the user up by userName, creates (links) them as a member with the connection's roles, finds them by every supported filter", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const grace = await w.user("grace@acme.test")
    const lookup = await scim(w, acmeToken, "GET", filterQuery('userName eq "grace@acme.test"', "&startIndex=1&count=100"))
    expect(lookup.status).toBe(200)
    expect(lookup.headers.get("content-type")).toBe("application/scim+json")
    expect(lookup.body).toEqual({ schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] })

    const created = await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))
    expect(created.status).toBe(201)
    expect(created.headers.get("content-type")).toBe("application/scim+json")
    const id = created.body.id as string
    expect(created.headers.get("location")).toBe(`${origin}/auth/sso/scim/v2/Users/${id}`)
    expect(created.body).toMatchObject({
      schemas: [userSchema],
      userName: "grace@acme.test",
      externalId: "00ujl29u0le5T6Aj10h7",
      name: { givenName: "Grace", familyName: "Hopper", formatted: "Grace Hopper" },
      emails: [{ value: "grace@acme.test", type: "work", primary: true }],
      active: true,
      meta: { resourceType: "User", location: `${origin}/auth/sso/scim/v2/Users/${id}` },
    })
    expect(JSON.stringify(created.body)).not.toContain("1mz050nq")
    expect(await w.adapter.store!.findOne(scimUserModel, { id })).toMatchObject({ userId: grace.id })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])

    for (const filter of ['userName eq "grace@acme.test"', 'USERNAME Eq "Grace@Acme.test"', 'externalId eq "00ujl29u0le5T6Aj10h7"', 'emails[type eq "work"].value eq "grace@acme.test"', 'emails.value eq "grace@acme.test"', `urn:ietf:params:scim:schemas:core:2.0:User:userName eq "grace@acme.test"`, `id eq "${id}"`]) {
      const found = await scim(w, acmeToken, "GET", filterQuery(filter))
      expect(found.body, filter).toMatchObject({ totalResults: 1, Resources: [{ id }] })
    }
    expect((await scim(w, acmeToken, "GET", filterQuery('emails[type eq "home"].value eq "grace@acme.test"'))).body.totalResults).toBe(0)
    expect((await scim(w, acmeToken, "GET", `Users/${id}`)).body).toEqual(created.body)

    // Already provisioned by this connection: by userName, or the same user under another userName.
    expect((await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body).toMatchObject({ status: "409", scimType: "uniqueness" })
    expect((await scim(w, acmeToken, "POST", "Users", { ...oktaUser("grace@acme.test"), userName: "ghopper" })).status).toBe(409)
  })

  it("pages by startIndex and count, and replaces a user with PUT", async () => {
    const { w, acmeToken } = await acmeAndGlobex()
    for (const email of ["grace@acme.test", "linus@acme.test", "ken@acme.test"]) {
      await w.user(email)
      expect((await scim(w, acmeToken, "POST", "Users", oktaUser(email, { externalId: email }))).status).toBe(201)
    }
    const page = await scim(w, acmeToken, "GET", "Users?startIndex=2&count=1")
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1, Resources: [{ userName: "linus@acme.test" }] })
    expect((await scim(w, acmeToken, "GET", "Users?startIndex=0&count=-5")).body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 0 })
    expect((await scim(w, acmeToken, "GET", "Users?count=many")).body).toMatchObject({ status: "400", scimType: "invalidValue" })

    const id = page.body.Resources[0].id as string
    const replaced = await scim(w, acmeToken, "PUT", `Users/${id}`, oktaUser("linus@acme.test", { name: { givenName: "Linus", familyName: "Torvalds" }, displayName: "Linus T", externalId: "okta-linus" }))
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ id, name: { givenName: "Linus", familyName: "Torvalds" }, displayName: "Linus T", externalId: "okta-linus", active: true })
    expect((await scim(w, acmeToken, "GET", `Users/${id}`)).body).toEqual(replaced.body)
  })

  it("Entra ID: deactivation removes the membership and ends the user's sessions; reactivation restores it; Okta's shape too; DELETE forgets", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const grace = await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    expect((await grace.session()).user.email).toBe("grace@acme.test")

    const off = await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))
    expect(off.status).toBe(200)
    expect(off.body).toMatchObject({ id, active: false })
    expect(await rolesIn(ada, acme.id)).not.toHaveProperty("grace@acme.test")
    expect(await grace.session()).toBeNull()
    // Noted as a departure: a verified domain's auto-join does not bring them back.
    expect(await w.adapter.store!.findOne(departureModel, { organizationId: acme.id, userId: grace.id })).not.toBeNull()

    const on = await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("True"))
    expect(on.body).toMatchObject({ active: true })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])
    expect(await w.adapter.store!.findOne(departureModel, { organizationId: acme.id, userId: grace.id })).toBeNull()

    // Okta's shape: no path, an object.
    await grace.signIn()
    const oktaOff = await scim(w, acmeToken, "PATCH", `Users/${id}`, { schemas: [patchOp], Operations: [{ op: "replace", value: { active: false } }] })
    expect(oktaOff.body).toMatchObject({ active: false })
    expect(await grace.session()).toBeNull()
    expect(await rolesIn(ada, acme.id)).not.toHaveProperty("grace@acme.test")
    await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("True"))

    // Names and externalId, as Entra ID sends them (path, capitalized op; attributes it keeps elsewhere are ignored).
    const renamed = await scim(w, acmeToken, "PATCH", `Users/${id}`, {
      schemas: [patchOp],
      Operations: [
        { op: "Replace", path: "name.givenName", value: "Amazing" },
        { op: "Add", path: "name.familyName", value: "Grace" },
        { op: "Replace", path: "displayName", value: "Amazing Grace" },
        { op: "Replace", path: "externalId", value: "entra-1" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "other@acme.test" },
        { op: "Add", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Navy" },
      ],
    })
    expect(renamed.body).toMatchObject({ name: { givenName: "Amazing", familyName: "Grace" }, displayName: "Amazing Grace", externalId: "entra-1", emails: [{ value: "grace@acme.test" }], active: true })
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, { schemas: [patchOp], Operations: [{ op: "Replace", path: "nosuch", value: "x" }] })).body).toMatchObject({ status: "400", scimType: "invalidPath" })

    await grace.signIn()
    expect((await scim(w, acmeToken, "DELETE", `Users/${id}`)).status).toBe(204)
    expect((await scim(w, acmeToken, "GET", `Users/${id}`)).status).toBe(404)
    expect(await rolesIn(ada, acme.id)).not.toHaveProperty("grace@acme.test")
    expect(await grace.session()).toBeNull()
    // The user stays (their account is theirs); only the membership went.
    expect(await w.adapter.getUser!(grace.id)).not.toBeNull()
  })

  it("reactivation brings back only whom its own deactivation removed: someone who left stays out", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const linus = await w.user("linus@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("linus@acme.test"))).body.id as string
    await linus.api("leaveOrganization", acme.id)
    await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))
    await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("True"))
    expect(await rolesIn(ada, acme.id)).not.toHaveProperty("linus@acme.test")
  })

  it("never deprovisions an owner of the organization", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const boss = await w.user("boss@acme.test")
    await w.join(ada, acme, boss, ["owner"])
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("boss@acme.test"))).body.id as string
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))).body).toMatchObject({ status: "400", scimType: "mutability" })
    expect((await scim(w, acmeToken, "DELETE", `Users/${id}`)).status).toBe(400)
    expect((await rolesIn(ada, acme.id))["boss@acme.test"]).toEqual(["owner"])
    expect((await boss.session()).user.email).toBe("boss@acme.test")
    expect((await scim(w, acmeToken, "GET", `Users/${id}`)).body).toMatchObject({ active: true })
  })

  it("creates the user of a new address, proven, when the core lets a module create users; else 501 and nothing stored", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const service = scimService(resolveSsoOptions({ organizations: w.orgs }))
    const adapter = w.adapter
    const context = (create: boolean): ModuleServiceContext => ({
      store: adapter.store,
      logger: { debug: () => {}, error: () => {} },
      securityEvent: async () => {},
      sealing,
      publicAuthUrl: null,
      users: {
        get: (userId) => adapter.getUser!(userId),
        getByEmail: (email) => adapter.getUserByEmail!(email),
        endSessions: async (userId) => {
          await adapter.deleteSessionsByUserId!(userId)
          return 0
        },
        ...(create ? { create: (user: { email: string; name: string | null; emailVerified: Date }) => adapter.createUser!({ id: crypto.randomUUID(), image: null, ...user }) } : {}),
      } as ModuleServiceContext["users"],
      path: "Users",
      authUrl: `${origin}/auth`,
    })
    const post = (create: boolean) =>
      service.handle(new Request(`${origin}/auth/sso/scim/v2/Users`, { method: "POST", headers: { authorization: `Bearer ${acmeToken}` }, body: JSON.stringify(oktaUser("new@acme.test")) }), context(create))

    const refused = await post(false)
    expect(refused.status).toBe(501)
    expect(await adapter.getUserByEmail!("new@acme.test")).toBeNull()
    expect(await adapter.store!.count(scimUserModel)).toBe(0)

    const created = await post(true)
    expect(created.status).toBe(201)
    const user = await adapter.getUserByEmail!("new@acme.test")
    expect(user).toMatchObject({ name: "Grace Hopper", emailVerified: expect.any(Date) })
    expect((await rolesIn(ada, acme.id))["new@acme.test"]).toEqual(["member"])
    expect((await scim(w, acmeToken, "GET", filterQuery('userName eq "new@acme.test"'))).body.totalResults).toBe(1)
  })

  it("does not link an account that holds the address without having proven it", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    await w.adapter.createUser!({ id: crypto.randomUUID(), email: "squat@acme.test", name: "Squatter", emailVerified: null })
    expect((await scim(w, acmeToken, "POST", "Users", oktaUser("squat@acme.test"))).body).toMatchObject({ status: "409", scimType: "uniqueness" })
    expect(await rolesIn(ada, acme.id)).not.toHaveProperty("squat@acme.test")
  })
})

describe("SCIM groups", () => {
  it("give the role their name names to their members, and take it back when they leave or the group goes", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    await w.user("grace@acme.test")
    const grace = (await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    const created = await scim(w, acmeToken, "POST", "Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Admin", members: [{ value: grace }] })
    expect(created.status).toBe(201)
    const group = created.body.id as string
    expect(created.body).toMatchObject({ displayName: "Admin", members: [{ value: grace }] })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "admin"])

    // Okta removes a member by a value path; Entra ID adds with a list.
    await scim(w, acmeToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "remove", path: `members[value eq "${grace}"]` }] })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])
    await scim(w, acmeToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "Add", path: "members", value: [{ value: grace }] }] })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "admin"])

    const found = await scim(w, acmeToken, "GET", `Groups?filter=${encodeURIComponent('displayName eq "admin"')}&excludedAttributes=members`)
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: group, displayName: "Admin" }] })
    expect(found.body.Resources[0].members).toBeUndefined()
    expect((await scim(w, acmeToken, "POST", "Groups", { displayName: "ADMIN" })).body).toMatchObject({ status: "409", scimType: "uniqueness" })

    // A group whose name is no role changes no role; renaming one takes the old role away.
    expect((await scim(w, acmeToken, "POST", "Groups", { displayName: "Engineering", members: [{ value: grace }] })).status).toBe(201)
    expect((await scim(w, acmeToken, "POST", "Groups", { displayName: "Owner", members: [{ value: grace }] })).status).toBe(201)
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "admin"])
    await scim(w, acmeToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "replace", value: { id: group, displayName: "Admins" } }] })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])
    await scim(w, acmeToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "Replace", path: "displayName", value: "admin" }] })
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "admin"])

    expect((await scim(w, acmeToken, "DELETE", `Groups/${group}`)).status).toBe(204)
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])
    expect((await scim(w, acmeToken, "GET", `Groups/${group}`)).status).toBe(404)
  })

  it("give only the roles the token's maker could give: an admin's token cannot make someone hold a role beyond an admin", async () => {
    const w = makeWorld({ dynamicRoles: true, plugins: (orgs) => [sso({ organizations: orgs, allowPrivateNetworks: true })] })
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    const acme = await w.organization(ada, "Acme")
    await w.join(ada, acme, bob, ["admin"])
    await proveDomain(w, acme.id, "acme.test")
    await ada.api("createRole", acme.id, "deleter", { project: ["delete"] })
    await ada.api("createRole", acme.id, "viewer", { project: ["read"] })
    const connection = await ada.api("createConnection", acme.id, oidc)
    const bobs = (await bob.api("createScimToken", acme.id, connection.id)).token as string
    await w.user("grace@acme.test")
    const grace = (await scim(w, bobs, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    for (const displayName of ["deleter", "viewer", "owner"]) {
      expect((await scim(w, bobs, "POST", "Groups", { displayName, members: [{ value: grace }] })).status).toBe(201)
    }
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "viewer"])

    // The owner's token may give what the owner may, never `owner` itself.
    const adas = (await ada.api("createScimToken", acme.id, connection.id)).token as string
    for (const displayName of ["deleter", "owner"]) {
      const group = (await scim(w, adas, "GET", `Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`)).body.Resources[0].id as string
      await scim(w, adas, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "remove", path: "members" }] })
      await scim(w, adas, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "add", path: "members", value: [{ value: grace }] }] })
    }
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member", "viewer", "deleter"])
  })
})

describe("SCIM changes reported to the app's onChange", () => {
  it("activation, deactivation, reactivation and DELETE each report their change by `scim:<connection id>`; a re-PUT of the same state reports nothing", async () => {
    const { w, acme, acmeConnection, acmeToken } = await acmeAndGlobex()
    const actorId = `scim:${acmeConnection.id}`
    const grace = await w.user("grace@acme.test")
    w.events.length = 0
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    expect(w.events).toEqual([{ type: "member.added", organizationId: acme.id, actorId, memberId: expect.any(String), userId: grace.id, roles: ["member"] }])
    const memberId = (w.events[0] as { memberId: string }).memberId

    // Okta's sync PUTs the user as it is: nothing changed, nothing reported.
    expect((await scim(w, acmeToken, "PUT", `Users/${id}`, oktaUser("grace@acme.test"))).status).toBe(200)
    expect(w.events).toHaveLength(1)

    w.events.length = 0
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))).status).toBe(200)
    expect(w.events).toEqual([{ type: "member.removed", organizationId: acme.id, actorId, memberId, userId: grace.id }])
    // Deactivated again, by PATCH or by PUT: already out, nothing reported.
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))).status).toBe(200)
    expect((await scim(w, acmeToken, "PUT", `Users/${id}`, oktaUser("grace@acme.test", { active: false }))).status).toBe(200)
    expect(w.events).toHaveLength(1)

    w.events.length = 0
    await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("True"))
    expect(w.events).toEqual([{ type: "member.added", organizationId: acme.id, actorId, memberId: expect.any(String), userId: grace.id, roles: ["member"] }])
    const again = (w.events[0] as { memberId: string }).memberId
    expect((await scim(w, acmeToken, "DELETE", `Users/${id}`)).status).toBe(204)
    expect(w.events.slice(1)).toEqual([{ type: "member.removed", organizationId: acme.id, actorId, memberId: again, userId: grace.id }])
  })

  it("a group's change reports member.roles-changed with the roles before, only when the roles change; a re-PUT of the group reports nothing", async () => {
    const { w, acme, acmeConnection, acmeToken } = await acmeAndGlobex()
    const actorId = `scim:${acmeConnection.id}`
    const grace = await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    const memberId = (w.events.at(-1) as { memberId: string }).memberId
    w.events.length = 0

    const group = (await scim(w, acmeToken, "POST", "Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Admin", members: [{ value: id }] })).body.id as string
    expect(w.events).toEqual([{ type: "member.roles-changed", organizationId: acme.id, actorId, memberId, userId: grace.id, roles: ["member", "admin"], previous: ["member"] }])

    // The same group again (Entra ID's and Okta's syncs), a group that names no role, one whose role she holds already: nothing.
    expect((await scim(w, acmeToken, "PUT", `Groups/${group}`, { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Admin", members: [{ value: id }] })).status).toBe(200)
    expect((await scim(w, acmeToken, "POST", "Groups", { displayName: "Engineering", members: [{ value: id }] })).status).toBe(201)
    expect((await scim(w, acmeToken, "POST", "Groups", { displayName: "Member", members: [{ value: id }] })).status).toBe(201)
    expect(w.events).toHaveLength(1)

    await scim(w, acmeToken, "PATCH", `Groups/${group}`, { schemas: [patchOp], Operations: [{ op: "remove", path: `members[value eq "${id}"]` }] })
    expect(w.events.slice(1)).toEqual([{ type: "member.roles-changed", organizationId: acme.id, actorId, memberId, userId: grace.id, roles: ["member"], previous: ["member", "admin"] }])
  })

  it("an owner refused deprovisioning is no change: nothing reported", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    const boss = await w.user("boss@acme.test")
    await w.join(ada, acme, boss, ["owner"])
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("boss@acme.test"))).body.id as string
    w.events.length = 0
    expect((await scim(w, acmeToken, "PATCH", `Users/${id}`, entraActive("False"))).body).toMatchObject({ status: "400", scimType: "mutability" })
    expect(w.events).toEqual([])
  })
})

describe("the SCIM service", () => {
  it("describes itself: ServiceProviderConfig, ResourceTypes, Schemas", async () => {
    const { w, acmeToken } = await acmeAndGlobex()
    const config = await scim(w, acmeToken, "GET", "ServiceProviderConfig")
    expect(config.body).toMatchObject({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"], patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 }, authenticationSchemes: [{ type: "oauthbearertoken" }] })
    const types = await scim(w, acmeToken, "GET", "ResourceTypes")
    expect(types.body.Resources.map((t: { endpoint: string }) => t.endpoint)).toEqual(["/Users", "/Groups"])
    expect((await scim(w, acmeToken, "GET", "ResourceTypes/User")).body).toMatchObject({ schema: userSchema })
    const schemaList = await scim(w, acmeToken, "GET", "Schemas")
    expect(schemaList.body.Resources.map((s: { id: string }) => s.id)).toEqual([userSchema, "urn:ietf:params:scim:schemas:core:2.0:Group"])
    expect((await scim(w, acmeToken, "GET", `Schemas/${userSchema}`)).body.attributes.map((a: { name: string }) => a.name)).toContain("userName")
  })

  it("answers 404 for an unknown path and 405 with Allow for a method the path does not take, in SCIM errors", async () => {
    const { w, acmeToken } = await acmeAndGlobex()
    for (const path of ["Nope", "Users/a/b", "Bulk", ""]) {
      const answer = await scim(w, acmeToken, "GET", path)
      expect(answer.status, path).toBe(404)
      expect(answer.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "404" })
    }
    const wrong = await scim(w, acmeToken, "DELETE", "Users")
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get("allow")).toBe("GET, POST")
    expect(wrong.headers.get("content-type")).toBe("application/scim+json")
    expect((await scim(w, acmeToken, "PATCH", "ServiceProviderConfig", {})).status).toBe(405)
  })
})

describe("attacks on the SCIM service", () => {
  it("no token, a wrong, malformed or revoked one, or another scheme: 401 with WWW-Authenticate, on every path", async () => {
    const { w, ada, acme, acmeConnection, acmeToken } = await acmeAndGlobex()
    const forged = `sesame_scim_${"A".repeat(43)}`
    const attempts: [string | null, Record<string, string>][] = [
      [null, {}],
      [forged, {}],
      [acmeToken.slice(0, -1), {}],
      [`${acmeToken}x`, {}],
      [null, { authorization: `Basic ${btoa(`scim:${acmeToken}`)}` }],
      [null, { authorization: acmeToken }],
    ]
    for (const [token, headers] of attempts) {
      for (const [method, path] of [["GET", "Users"], ["GET", "ServiceProviderConfig"], ["GET", "Nope"], ["POST", "Users"]] as const) {
        const answer = await scim(w, token, method, path, method === "POST" ? oktaUser("grace@acme.test") : undefined, headers)
        expect(answer.status, `${token} ${JSON.stringify(headers)} ${path}`).toBe(401)
        expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/)
        expect(answer.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "401" })
      }
    }
    await ada.api("revokeScimToken", acme.id, acmeConnection.id)
    expect((await scim(w, acmeToken, "GET", "Users")).status).toBe(401)
    expect(await w.adapter.store!.count(scimUserModel)).toBe(0)
  })

  it("a browser's session alone, even an admin's, is no SCIM authentication", async () => {
    const { bob } = await acmeAndGlobex()
    const read = await bob.send("sso/scim/v2/Users")
    expect(read.status).toBe(401)
    const write = await bob.send("sso/scim/v2/Users", { method: "POST", json: oktaUser("grace@acme.test") })
    expect(write.status).toBe(401)
    expect(write.headers.get("www-authenticate")).toMatch(/^Bearer/)
  })

  it("a token of one organization never reads, changes or deletes another's user: 404, and nothing changes", async () => {
    const { w, ada, acme, acmeToken, globexToken } = await acmeAndGlobex()
    const grace = await w.user("grace@acme.test")
    const id = (await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))).body.id as string
    const before = await w.adapter.store!.findOne(scimUserModel, { id })

    expect((await scim(w, globexToken, "GET", `Users/${id}`)).status).toBe(404)
    expect((await scim(w, globexToken, "PATCH", `Users/${id}`, entraActive("False"))).body).toMatchObject({ status: "404" })
    expect((await scim(w, globexToken, "PUT", `Users/${id}`, oktaUser("grace@acme.test", { active: false }))).status).toBe(404)
    expect((await scim(w, globexToken, "DELETE", `Users/${id}`)).status).toBe(404)
    for (const filter of ['userName eq "grace@acme.test"', `id eq "${id}"`, 'emails.value eq "grace@acme.test"']) {
      expect((await scim(w, globexToken, "GET", filterQuery(filter))).body.totalResults, filter).toBe(0)
    }
    expect((await scim(w, globexToken, "GET", "Users")).body.totalResults).toBe(0)
    // Nor through a group of its own.
    expect((await scim(w, globexToken, "POST", "Groups", { displayName: "admin", members: [{ value: id }] })).body).toMatchObject({ status: "400", scimType: "invalidValue" })
    // Nor by provisioning Acme's address itself.
    expect((await scim(w, globexToken, "POST", "Users", oktaUser("grace@acme.test"))).body).toMatchObject({ status: "400", scimType: "invalidValue" })

    expect(await w.adapter.store!.findOne(scimUserModel, { id })).toEqual(before)
    expect((await rolesIn(ada, acme.id))["grace@acme.test"]).toEqual(["member"])
    expect((await grace.session()).user.email).toBe("grace@acme.test")
  })

  it("an address at a domain the organization did not prove is refused: 400, no user, no membership", async () => {
    const { w, ada, acme, acmeToken } = await acmeAndGlobex()
    await w.user("dan@globex.test")
    for (const email of ["dan@globex.test", "eve@unproven.test", "eve@sub.acme.test", "eve@acme.test.evil.example"]) {
      const answer = await scim(w, acmeToken, "POST", "Users", oktaUser(email))
      expect(answer.status, email).toBe(400)
      expect(answer.body).toMatchObject({ scimType: "invalidValue" })
    }
    // The userName says one thing, the primary address another: the address decides.
    expect((await scim(w, acmeToken, "POST", "Users", { ...oktaUser("dan@globex.test"), userName: "dan@acme.test" })).status).toBe(400)
    expect(await w.adapter.store!.count(scimUserModel)).toBe(0)
    expect(await w.adapter.getUserByEmail!("eve@unproven.test")).toBeNull()
    expect(Object.keys(await rolesIn(ada, acme.id)).sort()).toEqual(["ada@example.com", "bob@example.com", "cy@example.com"])
  })

  it("a filter beyond `attribute eq \"value\"` is 400 invalidFilter, and a quoted value is only ever a value", async () => {
    const { w, acmeToken } = await acmeAndGlobex()
    await w.user("grace@acme.test")
    await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test"))
    const refused = [
      'userName ne "grace@acme.test"',
      'userName sw "g"',
      'userName co "a"',
      "userName pr",
      'userName eq "grace@acme.test" or userName eq "x"',
      'userName eq "x" and active eq true',
      'not (userName eq "x")',
      "active eq true",
      "userName eq grace@acme.test",
      'userName eq "unterminated',
      'userName eq "x"; DROP TABLE sesame_sso_scim_users',
      'userName eq {"$ne":null}',
      'name.givenName eq "Grace"',
      'emails[value eq "grace@acme.test"]',
      'emails[type ne "work"].value eq "grace@acme.test"',
      "",
    ]
    for (const filter of refused) {
      const answer = await scim(w, acmeToken, "GET", filterQuery(filter))
      expect(answer.status, filter).toBe(400)
      expect(answer.body, filter).toMatchObject({ status: "400", scimType: "invalidFilter" })
    }
    for (const value of ['x\\") or (userName pr', "%", "*", ".*"]) {
      const answer = await scim(w, acmeToken, "GET", filterQuery(`userName eq "${value}"`))
      expect(answer.status, value).toBe(200)
      expect(answer.body.totalResults, value).toBe(0)
    }
    const twice = await scim(w, acmeToken, "GET", `${filterQuery('userName eq "a"')}&filter=${encodeURIComponent('userName eq "b"')}`)
    expect(twice.status).toBe(400)
  })

  it("a body over 64 KiB is 413, and one that is not a JSON object 400", async () => {
    const { w, acmeToken } = await acmeAndGlobex()
    await w.user("grace@acme.test")
    const big = await scim(w, acmeToken, "POST", "Users", oktaUser("grace@acme.test", { displayName: "x".repeat(70 * 1024) }))
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "413" })
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)))
        controller.close()
      },
    })
    const response = await Auth(new Request(`${origin}/auth/sso/scim/v2/Users`, { method: "POST", headers: { authorization: `Bearer ${acmeToken}` }, body: streamed, duplex: "half" } as RequestInit), w.config)
    expect(response.status).toBe(413)
    for (const body of ["not json", "[1]", "null"]) {
      expect((await scim(w, acmeToken, "POST", "Users", body)).body, body).toMatchObject({ status: "400", scimType: "invalidSyntax" })
    }
    expect(await w.adapter.store!.count(scimUserModel)).toBe(0)
  })

  it("a disabled connection's token no longer works", async () => {
    const { w, ada, acme, acmeConnection, acmeToken } = await acmeAndGlobex()
    await ada.api("updateConnection", acme.id, acmeConnection.id, { enabled: false })
    expect((await scim(w, acmeToken, "GET", "Users")).status).toBe(401)
    expect(await w.adapter.store!.count(memberModel, { organizationId: acme.id })).toBe(3)
  })
})
