/**
 * Attacks, each beside the legitimate flow it imitates: another user's key id, an organization
 * member without the permission, a member removed, a raw key looked for in the store and in the
 * logs, a key sent to the module's own POST endpoints instead of a session, a tampered checksum, a
 * key of another prefix, a stored hash that only nearly matches.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import { admin } from "@sesame/admin"
import { apiKeys, constantTimeEqual, parseKey } from "@sesame/api-keys"
import { acme, makeWorld } from "./world.js"

describe("another user's key", () => {
  it("B cannot list, revoke or rotate A's key by its id: NotFound, and nothing changes", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const b = await world.user("b@example.com")
    const key = await a.api("createApiKey", { name: "A's", scopes: ["read"] })
    const before = await world.storedRows()
    // The legitimate flow works for A.
    expect(await a.api("listApiKeys")).toHaveLength(1)

    expect(await b.api("listApiKeys")).toEqual([])
    await expect(b.api("revokeApiKey", key.id)).rejects.toMatchObject({ code: "NotFound", status: 404 })
    await expect(b.api("rotateApiKey", key.id)).rejects.toMatchObject({ code: "NotFound" })
    // Over HTTP too.
    expect((await b.post("api-keys/revoke", { keyId: key.id })).status).toBe(404)
    expect((await b.post("api-keys/rotate", { keyId: key.id })).status).toBe(404)
    expect((await b.send("api-keys/list")).status).toBe(200)
    expect(await world.storedRows()).toBe(before)
    expect(await world.bearer(key.key)).toMatchObject({ userId: a.id })
    expect(world.changes.map((c) => c.type)).toEqual(["api-key.created"])
  })

  it("a request's JSON cannot widen a lookup (an object where an id goes)", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const b = await world.user("b@example.com")
    await a.api("createApiKey", { name: "A's" })
    expect((await b.post("api-keys/revoke", { keyId: { ne: null } })).status).toBe(400)
    expect(await a.api("listApiKeys")).toHaveLength(1)
  })
})

describe("organization keys", () => {
  it("an admin creates, lists, rotates and revokes the organization's keys; a plain member can do none of it", async () => {
    const world = makeWorld({ organizations: true })
    const { bob, cy, org } = await acme(world)
    const created = await bob.api("createApiKey", { name: "Acme CI", organizationId: org.id, scopes: ["read"] })
    expect(created).toMatchObject({ userId: null, organizationId: org.id, createdBy: bob.id })
    expect(await world.bearer(created.key)).toMatchObject({ userId: null, organizationId: org.id, scopes: ["read"] })
    expect(await bob.api("listApiKeys", { organizationId: org.id })).toHaveLength(1)
    // The user's own list is theirs only.
    expect(await bob.api("listApiKeys")).toEqual([])

    await expect(cy.api("createApiKey", { name: "mine now", organizationId: org.id })).rejects.toMatchObject({ code: "Forbidden", status: 403 })
    await expect(cy.api("listApiKeys", { organizationId: org.id })).rejects.toMatchObject({ code: "Forbidden" })
    await expect(cy.api("revokeApiKey", created.id)).rejects.toMatchObject({ code: "NotFound" })
    await expect(cy.api("rotateApiKey", created.id)).rejects.toMatchObject({ code: "NotFound" })
    expect((await cy.post("api-keys/create", { name: "x", organizationId: org.id })).status).toBe(403)
    expect(await bob.api("listApiKeys", { organizationId: org.id })).toHaveLength(1)

    const rotated = await bob.api("rotateApiKey", created.id)
    expect(rotated.organizationId).toBe(org.id)
    expect(await bob.api("revokeApiKey", rotated.id)).toBe(true)
    expect(await world.bearer(rotated.key)).toBeNull()
    expect(await world.bearer(created.key)).toBeNull()
  })

  it("an outsider cannot use another organization's id", async () => {
    const world = makeWorld({ organizations: true })
    const { org } = await acme(world)
    const eve = await world.user("eve@example.com")
    await expect(eve.api("createApiKey", { name: "x", organizationId: org.id })).rejects.toMatchObject({ code: "Forbidden" })
  })

  it("a removed member's keys stay the organization's, working, and the member can no longer manage them", async () => {
    const world = makeWorld({ organizations: true })
    const { ada, bob, org, bobMember } = await acme(world)
    const created = await bob.api("createApiKey", { name: "Acme CI", organizationId: org.id })
    await ada.api("removeMember", org.id, bobMember)
    expect(await world.bearer(created.key)).toMatchObject({ organizationId: org.id })
    await expect(bob.api("listApiKeys", { organizationId: org.id })).rejects.toMatchObject({ code: "Forbidden" })
    await expect(bob.api("revokeApiKey", created.id)).rejects.toMatchObject({ code: "NotFound" })
    await expect(bob.api("rotateApiKey", created.id)).rejects.toMatchObject({ code: "NotFound" })
    // The owner still manages them.
    expect(await ada.api("listApiKeys", { organizationId: org.id })).toMatchObject([{ id: created.id, createdBy: bob.id }])
    // Bob's deletion keeps the organization's key, without its maker.
    await world.adapter.deleteUser!(bob.id)
    expect(await ada.api("listApiKeys", { organizationId: org.id })).toMatchObject([{ id: created.id, createdBy: null }])
  })

  it("a user's own keys go with the user", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const { key } = await a.api("createApiKey", { name: "k" })
    await world.adapter.deleteUser!(a.id)
    expect(await world.bearer(key)).toBeNull()
  })
})

describe("a session acting on someone's behalf", () => {
  it("an admin impersonating a user sees and revokes the user's keys, but mints none", async () => {
    const admins: string[] = []
    const world = makeWorld({ plugins: [admin({ admins: (user) => admins.includes(user.id) })] })
    const boss = await world.user("boss@example.com")
    admins.push(boss.id)
    const pat = await world.user("pat@example.com")
    const own = await pat.api("createApiKey", { name: "pat's" })
    const act = await boss.form("admin/act", { action: "impersonate", userId: pat.id })
    expect(act.status).toBe(302)
    expect(await boss.api("listApiKeys")).toMatchObject([{ id: own.id }])
    await expect(boss.api("createApiKey", { name: "backdoor" })).rejects.toMatchObject({ code: "Acting", status: 403 })
    await expect(boss.api("rotateApiKey", own.id)).rejects.toMatchObject({ code: "Acting" })
    expect((await boss.post("api-keys/create", { name: "backdoor" })).status).toBe(403)
    expect(await pat.api("listApiKeys")).toHaveLength(1)
    expect(await boss.api("revokeApiKey", own.id)).toBe(true)
  })
})

describe("the raw key is kept nowhere", () => {
  it("in no stored row, no write, no log line, no event", async () => {
    const world = makeWorld({ keys: { rateLimit: { max: 5, window: 60 } } })
    const a = await world.user("a@example.com")
    const created = await a.api("createApiKey", { name: "k", scopes: ["read"] })
    const rotated = await a.api("rotateApiKey", created.id)
    const page = await a.form("api-keys/create", { name: "from the page" })
    const fromPage = /sesame_[0-9A-Za-z]{49}/.exec(page.text)![0]
    for (const key of [created.key, rotated.key, fromPage]) {
      await world.bearer(key)
      await world.bearer(`${key.slice(0, -1)}x`)
    }
    await a.api("revokeApiKey", rotated.id)
    const stored = await world.storedRows()
    expect(stored).toContain(fromPage.slice(0, "sesame_".length + 4))
    expect(world.logs.length).toBeGreaterThan(0)
    const everything = [stored, ...world.written, ...world.logs, JSON.stringify(world.security), JSON.stringify(world.changes)].join("\n")
    for (const key of [created.key, rotated.key, fromPage]) {
      expect(everything).not.toContain(key)
      // Nor its random part without the prefix.
      expect(everything).not.toContain(key.slice("sesame_".length))
    }
  })
})

describe("a key is never the caller on the module's endpoints", () => {
  it("POSTs with only Authorization: Bearer <key> (no cookie) are refused and change nothing", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const created = await a.api("createApiKey", { name: "k" })
    const stranger = new world.Browser("s@example.com", "s")
    const csrf = await stranger.csrf()
    for (const [path, fields] of [
      ["api-keys/create", { name: "minted" }],
      ["api-keys/rotate", { keyId: created.id }],
      ["api-keys/revoke", { keyId: created.id }],
    ] as const) {
      const response = await stranger.send(path, { json: { csrfToken: csrf, ...fields }, headers: { authorization: `Bearer ${created.key}` } })
      expect(response.status).toBe(401)
    }
    // Without the CSRF cookie and token at all: the core refuses before the module runs.
    const bare = await stranger.send("api-keys/create", { json: { name: "minted" }, headers: { authorization: `Bearer ${created.key}`, cookie: "" } })
    // (The core's CSRF refusal: its error page, never the module.)
    expect(bare.status === 302 ? new URL(bare.headers.get("location")!).searchParams.get("error") : bare.status).toBe("MissingCSRF")
    expect((await stranger.send("api-keys/list", { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(401)
    expect(await a.api("listApiKeys")).toMatchObject([{ id: created.id, replacedBy: null }])
    expect(await world.bearer(created.key)).not.toBeNull()
  })

  it("nor does a key sent as a server function's request make it signed in", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const created = await a.api("createApiKey", { name: "k" })
    const { callModuleApi } = await import("@sesame/core")
    const request = new Request("http://localhost:3000/app", { headers: { authorization: `Bearer ${created.key}` } })
    await expect(callModuleApi(request, world.config, "createApiKey", { name: "minted" })).rejects.toMatchObject({ code: "NotSignedIn" })
  })

  it("a cross-site POST with the session is refused even with a token", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const response = await a.send("api-keys/create", { json: { csrfToken: await a.csrf(), name: "k" }, headers: { origin: "https://evil.example" } })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(await a.api("listApiKeys")).toEqual([])
  })
})

describe("what is checked before the store", () => {
  it("a tampered checksum, a key of another prefix, or garbage costs no storage read", async () => {
    const world = makeWorld()
    const a = await world.user("a@example.com")
    const { key } = await a.api("createApiKey", { name: "k" })
    const flip = (c: string) => (c === "A" ? "B" : "A")
    const tampered = [
      `${key.slice(0, -1)}${flip(key.at(-1)!)}`,
      `${key.slice(0, 10)}${flip(key[10]!)}${key.slice(11)}`,
      key.replace("sesame_", "other_"),
      `${key}0`,
      "sesame_",
      "",
    ]
    const before = world.reads.count
    for (const candidate of tampered) expect(await world.bearer(candidate)).toBeNull()
    expect(world.reads.count).toBe(before)
    // The real key does read the store.
    expect(await world.bearer(key)).not.toBeNull()
    expect(world.reads.count).toBeGreaterThan(before)
  })

  it("a key of another configuration's prefix is refused, and the configured prefix is used", async () => {
    const other = makeWorld({ keys: { prefix: "acme_live_" } })
    const a = await other.user("a@example.com")
    const { key } = await a.api("createApiKey", { name: "k" })
    expect(key).toMatch(/^acme_live_[0-9A-Za-z]{49}$/)
    expect(await other.bearer(key)).not.toBeNull()
    const world = makeWorld()
    expect(parseKey(key, "sesame_")).toBe(false)
    expect(await world.bearer(key)).toBeNull()
  })
})

describe("comparing secrets", () => {
  it("constantTimeEqual answers as equality does, whatever the lengths", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true)
    expect(constantTimeEqual("abc", "abd")).toBe(false)
    expect(constantTimeEqual("abc", "abcd")).toBe(false)
    expect(constantTimeEqual("", "")).toBe(true)
  })

  it("a stored hash that the store's lookup matched only loosely (a case-insensitive collation) is refused", async () => {
    const memory = MemoryAdapter()
    const store = memory.store!
    // A store that finds the hash without case, as MariaDB's default collation would.
    const loose = {
      ...store,
      findOne: async (model: never, where: Record<string, unknown>) => {
        if (typeof where.keyHash !== "string") return store.findOne(model, where as never)
        const rows = await store.findMany(model)
        return rows.find((row) => String(row.keyHash).toLowerCase() === (where.keyHash as string).toLowerCase()) ?? null
      },
    }
    const world = makeWorld({ adapter: { ...memory, store: loose as typeof store } })
    const a = await world.user("a@example.com")
    const { key, id } = await a.api("createApiKey", { name: "k" })
    expect(await world.bearer(key)).toMatchObject({ keyId: id })
    // Change the stored hash's case: the loose lookup still finds the row, the comparison refuses it.
    const row = (await store.findOne(apiKeys().models![0]!, { id }))!
    await store.update(apiKeys().models![0]!, { id }, { keyHash: String(row.keyHash).toUpperCase() })
    expect(await world.bearer(key)).toBeNull()
  })
})
