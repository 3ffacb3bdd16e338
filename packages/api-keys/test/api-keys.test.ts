/**
 * The module through its server functions and `verifyApiKey`: a key created, listed (never the key
 * or its hash), used, rate limited (what a 429 needs), expired, revoked, rotated (the old key works
 * during the overlap, not after), and the events each change reports.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { ApiKeyError, apiKeys, hasScopes, keyPattern } from "@sesame/api-keys"
import { makeWorld } from "./world.js"

afterEach(() => vi.useRealTimers())

/** Moves the clock (Date only: the store's expiries read it) by `seconds`. */
function later(seconds: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + seconds * 1000 })
}

describe("creating, listing and using a key", () => {
  it("makes a key shown once, lists it without the key or its hash, and verifies it", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const created = await ada.api("createApiKey", { name: "CI deploys", scopes: ["read", "write"] })
    expect(created.key).toMatch(keyPattern("sesame_"))
    expect(created.key).toMatch(/^sesame_[0-9A-Za-z]{49}$/)
    expect(created).toMatchObject({ name: "CI deploys", scopes: ["read", "write"], userId: ada.id, organizationId: null, createdBy: ada.id, lastUsedAt: null, rateLimit: null })
    expect(created.key.startsWith(created.start)).toBe(true)
    // 90 days by default.
    expect(created.expiresAt.getTime() - created.createdAt.getTime()).toBe(90 * 86_400_000)

    const listed = await ada.api("listApiKeys")
    expect(listed).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain(created.key)
    expect(Object.keys(listed[0]).sort()).toEqual(["createdAt", "createdBy", "expiresAt", "id", "lastUsedAt", "name", "organizationId", "rateLimit", "replacedBy", "scopes", "start", "userId"])

    const verified = await world.bearer(created.key)
    expect(verified).toEqual({ rateLimited: false, keyId: created.id, name: "CI deploys", userId: ada.id, organizationId: null, scopes: ["read", "write"], expires: new Date(created.expiresAt) })
    expect(hasScopes(verified, ["read"])).toBe(true)
    expect(hasScopes(verified, ["admin"])).toBe(false)
    expect((await ada.api("listApiKeys"))[0].lastUsedAt).toBeInstanceOf(Date)
  })

  it("reads the configured header too, and nothing without a key", async () => {
    const world = makeWorld({ keys: { header: "X-Api-Key" } })
    const ada = await world.user("ada@example.com")
    const { key } = await ada.api("createApiKey", { name: "k" })
    expect(await world.verify({ "x-api-key": key })).toMatchObject({ userId: ada.id })
    // Authorization may carry something else (the app's own tokens) beside the key's header.
    expect(await world.verify({ authorization: "Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig", "x-api-key": key })).toMatchObject({ userId: ada.id })
    expect(await world.verify({})).toBeNull()
    expect(await world.verify({ authorization: `Basic ${btoa(`x:${key}`)}` })).toBeNull()
    // The session cookie is not a key.
    expect(await world.verify({ cookie: ada.jar.header() })).toBeNull()
  })

  it("a scope the app no longer lists grants nothing, and a rotation drops it", async () => {
    const before = makeWorld()
    const ada = await before.user("ada@example.com")
    const { key, id } = await ada.api("createApiKey", { name: "k", scopes: ["read", "admin"] })
    const after = makeWorld({ adapter: before.adapter, keys: { scopes: ["read"] } })
    expect(await after.bearer(key)).toMatchObject({ scopes: ["read"] })
    const signedIn = new after.Browser(ada.email, ada.id)
    signedIn.jar.cookies.set("sesame.session-token", ada.jar.cookies.get("sesame.session-token")!)
    expect((await signedIn.api("rotateApiKey", id)).scopes).toEqual(["read"])
  })

  it("writes lastUsedAt at most once a minute", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const { key } = await ada.api("createApiKey", { name: "k" })
    const touches = () => world.written.filter((w) => w.includes("lastUsedAt") && !w.includes("keyHash")).length
    await world.bearer(key)
    await world.bearer(key)
    await world.bearer(key)
    expect(touches()).toBe(1)
    later(61)
    await world.bearer(key)
    expect(touches()).toBe(2)
  })

  it("refuses unknown scopes, an expiry beyond the maximum, a missing name, and more keys than allowed", async () => {
    const world = makeWorld({ keys: { expiresIn: { max: 30 * 86_400, default: 7 * 86_400 }, maxKeys: 2 } })
    const ada = await world.user("ada@example.com")
    await expect(ada.api("createApiKey", { name: "k", scopes: ["root"] })).rejects.toMatchObject({ code: "InvalidInput", status: 400 })
    await expect(ada.api("createApiKey", { name: "k", expiresIn: 31 * 86_400 })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(ada.api("createApiKey", { name: " " })).rejects.toBeInstanceOf(ApiKeyError)
    const first = await ada.api("createApiKey", { name: "a" })
    expect(first.expiresAt.getTime() - first.createdAt.getTime()).toBe(7 * 86_400_000)
    await ada.api("createApiKey", { name: "b", expiresIn: 30 * 86_400 })
    await expect(ada.api("createApiKey", { name: "c" })).rejects.toMatchObject({ code: "TooManyKeys", status: 409 })
    expect(await ada.api("listApiKeys")).toHaveLength(2)
  })

  it("checks its options when the configuration is written", () => {
    expect(() => apiKeys({ prefix: "Sesame-" })).toThrow(TypeError)
    expect(() => apiKeys({ scopes: ["Read Everything"] })).toThrow(TypeError)
    expect(() => apiKeys({ expiresIn: { max: 10 } })).toThrow(TypeError)
    expect(() => apiKeys({ expiresIn: { max: 86_400, default: 2 * 86_400 } })).toThrow(TypeError)
    expect(() => apiKeys({ rotationOverlap: -1 })).toThrow(TypeError)
    expect(() => apiKeys({ rateLimit: { max: 0, window: 60 } })).toThrow(TypeError)
    expect(() => apiKeys({ organizations: {} as never })).toThrow(TypeError)
    expect(apiKeys({ prefix: "acme_live_" }).id).toBe("api-keys")
  })
})

describe("limits and ends", () => {
  it("rate limits a key: over the limit, the answer says when to try again (for a 429 with Retry-After)", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const { key, id } = await ada.api("createApiKey", { name: "k", rateLimit: { max: 2, window: 60 } })
    const other = await ada.api("createApiKey", { name: "other" })
    expect(await world.bearer(key)).toMatchObject({ rateLimited: false })
    expect(await world.bearer(key)).toMatchObject({ rateLimited: false })
    const limited = await world.bearer(key)
    expect(limited).toMatchObject({ rateLimited: true, keyId: id })
    expect(limited!.rateLimited && limited!.retryAfter).toBeGreaterThanOrEqual(1)
    expect(limited!.rateLimited && limited!.retryAfter).toBeLessThanOrEqual(60)
    expect(hasScopes(limited, [])).toBe(false)
    // Another key is not limited by this one's uses.
    expect(await world.bearer(other.key)).toMatchObject({ rateLimited: false })
    later(61)
    expect(await world.bearer(key)).toMatchObject({ rateLimited: false })
  })

  it("a key of the options' default rate limit, and one made without any", async () => {
    const world = makeWorld({ keys: { rateLimit: { max: 1, window: 3600 } } })
    const ada = await world.user("ada@example.com")
    const limited = await ada.api("createApiKey", { name: "k" })
    const free = await ada.api("createApiKey", { name: "free", rateLimit: null })
    expect(limited.rateLimit).toEqual({ max: 1, window: 3600 })
    await world.bearer(limited.key)
    expect(await world.bearer(limited.key)).toMatchObject({ rateLimited: true })
    for (let i = 0; i < 3; i++) expect(await world.bearer(free.key)).toMatchObject({ rateLimited: false })
  })

  it("an expired key no longer works", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const { key } = await ada.api("createApiKey", { name: "short", expiresIn: 120 })
    expect(await world.bearer(key)).not.toBeNull()
    later(121)
    expect(await world.bearer(key)).toBeNull()
    expect(await ada.api("listApiKeys")).toEqual([])
  })

  it("a revoked key stops at once; the change is reported", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const { key, id } = await ada.api("createApiKey", { name: "k" })
    expect(await ada.api("revokeApiKey", id)).toBe(true)
    expect(await world.bearer(key)).toBeNull()
    expect(await ada.api("listApiKeys")).toEqual([])
    expect(world.changes.map((c) => c.type)).toEqual(["api-key.created", "api-key.revoked"])
    expect(world.security.filter((e) => e.type.startsWith("api-key.")).map((e) => [e.type, e.userId, e.actorId, e.details?.keyId])).toEqual([
      ["api-key.created", ada.id, ada.id, id],
      ["api-key.revoked", ada.id, ada.id, id],
    ])
  })

  it("rotation: the old key works during the overlap, not after; the new one is shown once and keeps the scopes", async () => {
    const world = makeWorld({ keys: { rotationOverlap: 3600 } })
    const ada = await world.user("ada@example.com")
    const old = await ada.api("createApiKey", { name: "deploys", scopes: ["write"], rateLimit: { max: 100, window: 60 } })
    const rotated = await ada.api("rotateApiKey", old.id)
    expect(rotated.key).not.toBe(old.key)
    expect(rotated).toMatchObject({ name: "deploys", scopes: ["write"], rateLimit: { max: 100, window: 60 }, userId: ada.id })
    expect(rotated.previousStopsAt.getTime() - Date.now()).toBeLessThanOrEqual(3600_000)
    expect(await world.bearer(old.key)).toMatchObject({ keyId: old.id })
    expect(await world.bearer(rotated.key)).toMatchObject({ keyId: rotated.id })
    const listed = await ada.api("listApiKeys")
    expect(listed.find((k: { id: string }) => k.id === old.id).replacedBy).toBe(rotated.id)
    // A key rotated already is not rotated again.
    await expect(ada.api("rotateApiKey", old.id)).rejects.toMatchObject({ code: "InvalidInput" })
    later(3601)
    expect(await world.bearer(old.key)).toBeNull()
    expect(await world.bearer(rotated.key)).toMatchObject({ keyId: rotated.id })
    expect(world.changes.at(-1)).toMatchObject({ type: "api-key.rotated", keyId: old.id, replacedBy: rotated.id })
  })

  it("rotation without overlap stops the old key at once; revoking the successor stops a predecessor still in its overlap", async () => {
    const now = makeWorld({ keys: { rotationOverlap: 0 } })
    const ada = await now.user("ada@example.com")
    const old = await ada.api("createApiKey", { name: "k" })
    await ada.api("rotateApiKey", old.id)
    expect(await now.bearer(old.key)).toBeNull()

    const world = makeWorld()
    const bo = await world.user("bo@example.com")
    const first = await bo.api("createApiKey", { name: "k" })
    const second = await bo.api("rotateApiKey", first.id)
    await bo.api("revokeApiKey", second.id)
    expect(await world.bearer(first.key)).toBeNull()
    expect(await world.bearer(second.key)).toBeNull()
  })

  it("an organization key without the organizations option is refused", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    await expect(ada.api("createApiKey", { name: "k", organizationId: "org1" })).rejects.toMatchObject({ code: "NoOrganizations" })
  })

  it("a signed-out request manages nothing", async () => {
    const world = makeWorld()
    const nobody = new world.Browser("x@example.com", "x")
    await expect(nobody.api("createApiKey", { name: "k" })).rejects.toMatchObject({ code: "NotSignedIn", status: 401 })
    await expect(nobody.api("listApiKeys")).rejects.toMatchObject({ code: "NotSignedIn" })
  })
})
