/**
 * The store of declared models on Redis: the conformance suite, and what it cannot see from
 * outside Redis: the keys a row holds and their removal on update and delete, key expiry of
 * expiring models, a user's deletion (and its dry run in a transaction), races between
 * connections, stale index entries, and the client's `keyPrefix`.
 */
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import type { AdapterUser, ModelDeclaration } from "@sesame/core/adapters"
import { StoreConflict } from "@sesame/core/adapters"
import RedisAdapter from "@sesame/adapter-redis"
import { afterAll, describe, expect, it } from "vitest"
import { connectRedis, dropPrefix, keysUnder, testPrefix } from "./services.js"

const prefix = testPrefix()
const client = await connectRedis()
// A second connection through a second adapter: another app instance on the same Redis.
const other = await connectRedis()
const adapter = RedisAdapter(client, { prefix })
const elsewhere = RedisAdapter(other, { prefix })
const store = adapter.store!

afterAll(async () => {
  await dropPrefix(client, prefix)
  await Promise.all([client.quit(), other.quit()])
})

runStoreTests({ name: "RedisAdapter store", adapter, skip: ["transactions"] })

const { note, tag } = storeTestModels
const unique = () => crypto.randomUUID().slice(0, 8)
const hour = 3_600_000
const notes = note.table
const user = async (): Promise<AdapterUser> =>
  adapter.createUser!({ id: crypto.randomUUID(), email: `m-${unique()}@example.com`, emailVerified: null, name: null, image: null })
const newNote = (userId: string, extra: Record<string, unknown> = {}) =>
  store.create(note, { id: `n-${unique()}`, userId, title: "Hello", createdAt: new Date(), ...extra } as never)

/** A model with an expiry, a unique value and an index, for the keys' time to live. */
const grant: ModelDeclaration = {
  name: "redisTestGrant",
  table: "redis_test_grants",
  primaryKey: "id",
  expires: "expiresAt",
  fields: {
    id: { type: "string" },
    code: { type: "string", unique: true },
    owner: { type: "string", index: true },
    expiresAt: { type: "date" },
  },
}

/** The store's keys (after the prefix) that mention `text`. */
const keysWith = async (text: string) =>
  (await keysUnder(client, `${prefix}model`)).filter((key) => key.includes(text)).map((key) => key.slice(prefix.length))

/** PTTL of `key` (after the prefix), checked to be within `ms` (less the time the test took). */
async function expectTtl(key: string, ms: number) {
  const ttl = await client.pttl(prefix + key)
  expect(ttl).toBeLessThanOrEqual(ms)
  expect(ttl).toBeGreaterThan(ms - 5_000)
}

describe("keys", () => {
  it("a row is a hash of its columns, with a claim per unique value and an entry per index", async () => {
    const u = await user()
    const slug = `s-${unique()}`
    const createdAt = new Date()
    const n = await newNote(u.id, { slug, createdAt, meta: { a: [1] }, pinned: true })
    expect(await client.hgetall(`${prefix}model:${notes}:${n.id}`)).toEqual({
      id: n.id,
      userId: u.id,
      title: "Hello",
      slug,
      stars: "0",
      pinned: "1",
      createdAt: String(createdAt.getTime()),
      meta: '{"a":[1]}',
    })
    expect(await client.get(`${prefix}model-unique:${notes}:slug:${slug}`)).toBe(n.id)
    expect(await client.zrange(`${prefix}model-index:${notes}:userId:${u.id}`, "0", "-1")).toEqual([n.id])
    expect(await client.zrange(`${prefix}model-index:${notes}:userId,createdAt:${u.id}:${createdAt.getTime()}`, "0", "-1")).toEqual([n.id])
    expect(await client.zscore(`${prefix}model-all:${notes}`, n.id as string)).toBe("0")
    // A column of its own name (tag's weight is stored as tag_weight), and key parts escaped.
    await store.create(tag, { noteId: n.id!, label: "a:b%c", weight: 2 })
    expect(await client.hgetall(`${prefix}model:${tag.table}:${n.id}:a%3Ab%25c`)).toEqual({ noteId: n.id, label: "a:b%c", tag_weight: "2" })
    expect(await store.findOne(tag, { noteId: n.id!, label: "a:b%c" })).toEqual({ noteId: n.id, label: "a:b%c", weight: 2 })
  })

  it("an update moves the claims and index entries of the values it changes, and leaves the rest", async () => {
    const u = await user()
    const [before, after] = [`s-${unique()}`, `s-${unique()}`]
    const n = await newNote(u.id, { slug: before })
    await store.update(note, { id: n.id! }, { slug: after, stars: 3 })
    expect(await keysWith(before)).toEqual([])
    expect(await client.get(`${prefix}model-unique:${notes}:slug:${after}`)).toBe(n.id)
    expect(await client.zrange(`${prefix}model-index:${notes}:userId:${u.id}`, "0", "-1")).toEqual([n.id])
    // Cleared: the claim goes, and nothing claims null.
    await store.update(note, { id: n.id! }, { slug: null })
    expect(await keysWith(after)).toEqual([])
    expect(await store.findOne(note, { id: n.id! })).toMatchObject({ slug: null, stars: 3 })
  })

  it("a delete leaves no key that names the row", async () => {
    const u = await user()
    const slug = `s-${unique()}`
    const n = await newNote(u.id, { slug })
    await store.create(tag, { noteId: n.id!, label: "x", weight: 1 })
    expect(await store.delete(note, { id: n.id! })).toBe(1)
    expect(await keysWith(n.id as string)).toEqual([])
    expect(await keysWith(slug)).toEqual([])
    expect(await client.zscore(`${prefix}model-all:${notes}`, n.id as string)).toBeNull()
    expect(await client.zscore(`${prefix}model-all:${tag.table}`, `${n.id}:x`)).toBeNull()
    // The user's index set held only this row: an empty sorted set is no key.
    expect(await keysWith(u.id)).toEqual([])
  })

  it("keeps each model's schema and which models refer to which, for deletions", async () => {
    await newNote((await user()).id)
    expect(JSON.parse((await client.get(`${prefix}model-schema:${note.name}`))!)).toMatchObject({ table: notes, pk: ["id"] })
    expect((await client.smembers(`${prefix}model-referrers:user`)).sort()).toEqual([`${note.name}:reviewerId`, `${note.name}:userId`])
  })

  it("puts a model under the table the adapter names for it", async () => {
    const renamed = RedisAdapter(client, { prefix, tables: { [grant.name]: "renamed_grants" } }).store!
    const id = `g-${unique()}`
    await renamed.create(grant, { id, code: unique(), owner: "o", expiresAt: new Date(Date.now() + hour) })
    expect(await client.exists(`${prefix}model:renamed_grants:${id}`)).toBe(1)
    expect(await client.exists(`${prefix}model:${grant.table}:${id}`)).toBe(0)
    expect(() => RedisAdapter(client, { prefix, tables: { [grant.name]: "a:b" } })).toThrow(TypeError)
  })
})

describe("expiry", () => {
  it("a row's key, its claims and its model's sets expire at the row's expiry, and move with it", async () => {
    const [id, code, owner] = [`g-${unique()}`, `c-${unique()}`, `o-${unique()}`]
    const expiresAt = new Date(Date.now() + hour)
    await store.create(grant, { id, code, owner, expiresAt })
    const keys = [`model:${grant.table}:${id}`, `model-unique:${grant.table}:code:${code}`, `model-index:${grant.table}:owner:${owner}`]
    for (const key of keys) await expectTtl(key, hour)
    expect(await client.zscore(`${prefix}model-all:${grant.table}`, id)).toBe(String(expiresAt.getTime()))
    const later = new Date(Date.now() + 5 * hour)
    await store.update(grant, { id }, { expiresAt: later })
    for (const key of keys) await expectTtl(key, 5 * hour)
    await expectTtl(`model-all:${grant.table}`, 5 * hour)
    expect(await client.zscore(`${prefix}model-all:${grant.table}`, id)).toBe(String(later.getTime()))
    // A model without expires: nothing expires.
    const n = await newNote((await user()).id)
    expect(await client.pttl(`${prefix}model:${notes}:${n.id}`)).toBe(-1)
    expect(await client.pttl(`${prefix}model-all:${notes}`)).toBe(-1)
  })

  it("a row created already expired is gone, and its unique value free", async () => {
    const code = `c-${unique()}`
    const id = `g-${unique()}`
    await store.create(grant, { id, code, owner: "o", expiresAt: new Date(Date.now() - 1000) })
    expect(await keysWith(id)).toEqual([])
    await expect(store.create(grant, { id: `g-${unique()}`, code, owner: "o", expiresAt: new Date(Date.now() + hour) })).resolves.toMatchObject({ code })
  })

  it("an increment keeps the row's expiry, unless its `set` moves it (a sliding expiry)", async () => {
    const counter = storeTestModels.counter
    const key = `k-${unique()}`
    const row = `model:${counter.table}:${key}`
    await store.increment(counter, { key }, "count", { create: { key, count: 0, expires: new Date(Date.now() + hour) } })
    await store.increment(counter, { key }, "count", { create: { key, count: 0, expires: new Date(Date.now() + 9 * hour) } })
    await expectTtl(row, hour)
    expect(await client.hget(prefix + row, "count")).toBe("2")
    const create = { key, count: 0, expires: new Date(Date.now() + 9 * hour) }
    await store.increment(counter, { key }, "count", { create, set: { expires: new Date(Date.now() + 3 * hour) } })
    await expectTtl(row, 3 * hour)
    expect(await client.zscore(`${prefix}model-all:${counter.table}`, key)).toBe(await client.hget(prefix + row, "expires"))
  })
})

describe("a user's deletion", () => {
  it("deletes the rows that refer to the user and theirs, clears set-null references, and leaves no key behind", async () => {
    const owner = await user()
    const reviewer = await user()
    const slug = `s-${unique()}`
    const mine = await newNote(owner.id, { slug, reviewerId: reviewer.id })
    await store.create(tag, { noteId: mine.id!, label: "x", weight: 1 })
    const reviewed = await newNote(reviewer.id, { reviewerId: owner.id })
    await adapter.deleteUser!(owner.id)
    expect(await keysWith(mine.id as string)).toEqual([])
    expect(await keysWith(slug)).toEqual([])
    expect(await keysWith(owner.id)).toEqual([])
    expect(await store.findOne(note, { id: reviewed.id! })).toMatchObject({ reviewerId: null })
    expect(await store.count(note, { reviewerId: owner.id })).toBe(0)
  })

  it("in a transaction, is rolled back with the rest when the transaction throws, and done when it commits", async () => {
    const owner = await user()
    const n = await newNote(owner.id)
    await store.create(tag, { noteId: n.id!, label: "x", weight: 1 })
    const failure = new Error("changed my mind")
    await expect(
      adapter.transaction!(async (tx) => {
        await tx.deleteUser!(owner.id)
        throw failure
      }),
    ).rejects.toBe(failure)
    expect(await store.findOne(note, { id: n.id! })).toMatchObject({ userId: owner.id })
    expect(await store.count(tag, { noteId: n.id! })).toBe(1)
    expect(await store.findMany(note, { where: { userId: owner.id } })).toHaveLength(1)
    await adapter.transaction!(async (tx) => {
      await tx.deleteUser!(owner.id)
    })
    expect(await store.findOne(note, { id: n.id! })).toBeNull()
    expect(await keysWith(n.id as string)).toEqual([])
  })

  it("a row cannot refer to a user or a row that does not exist", async () => {
    await expect(newNote(crypto.randomUUID())).rejects.toThrow(/refers to a user that does not exist/)
    await expect(store.create(tag, { noteId: `n-${unique()}`, label: "x", weight: 1 })).rejects.toThrow(/refers to a storeTestNote/)
    const n = await newNote((await user()).id)
    await expect(store.update(note, { id: n.id! }, { reviewerId: crypto.randomUUID() })).rejects.toThrow(/does not exist/)
  })
})

describe("races", () => {
  it("of concurrent conditional updates from two instances, one counts", async () => {
    const n = await newNote((await user()).id, { stars: 0 })
    const counts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? store : elsewhere.store!).update(note, { id: n.id!, stars: 0 }, { stars: i + 1 })),
    )
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1)
  })

  it("of 50 concurrent increments from two instances, each counts", async () => {
    const counter = storeTestModels.counter
    const key = `c-${unique()}`
    const create = { key, count: 0, expires: new Date(Date.now() + hour) }
    await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? store : elsewhere.store!).increment(counter, { key }, "count", { create })))
    expect(await store.findOne(counter, { key })).toMatchObject({ count: 50 })
  })

  it("of concurrent creates of one unique value from two instances, one wins", async () => {
    const u = await user()
    const slug = `s-${unique()}`
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? store : elsewhere.store!).create(note, { id: `n-${unique()}`, userId: u.id, title: "Race", slug, createdAt: new Date() })),
    )
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(StoreConflict)
  })

  it("an update to a value another row holds changes nothing, for any of the rows", async () => {
    const u = await user()
    const a = await newNote(u.id, { slug: `a-${unique()}`, stars: 7 })
    const b = await newNote(u.id, { slug: `b-${unique()}`, stars: 7 })
    await expect(store.update(note, { userId: u.id, stars: 7 }, { slug: `c-${unique()}` })).rejects.toBeInstanceOf(StoreConflict)
    expect(await store.findOne(note, { id: a.id! })).toMatchObject({ slug: a.slug })
    expect(await store.findOne(note, { id: b.id! })).toMatchObject({ slug: b.slug })
  })
})

describe("stale entries", () => {
  it("an index entry whose row is gone is skipped, and removed when met", async () => {
    const u = await user()
    const [a, b] = [await newNote(u.id), await newNote(u.id)]
    await client.del(`${prefix}model:${notes}:${a.id}`)
    expect((await store.findMany(note, { where: { userId: u.id } })).map((r) => r.id)).toEqual([b.id])
    expect(await client.zrange(`${prefix}model-index:${notes}:userId:${u.id}`, "0", "-1")).toEqual([b.id])
  })
})

describe("a client with a keyPrefix", () => {
  it("finds by index what it stored: plain commands and the script use the same keys", async () => {
    const prefixed = await connectRedis({ keyPrefix: `${prefix}client:` })
    try {
      const inner = RedisAdapter(prefixed, { prefix: "app:" })
      const u = await inner.createUser!({ id: crypto.randomUUID(), email: `k-${unique()}@example.com`, emailVerified: null, name: null, image: null })
      const n = await inner.store!.create(note, { id: `n-${unique()}`, userId: u.id, title: "Prefixed", createdAt: new Date() })
      expect(await client.exists(`${prefix}client:app:model:${notes}:${n.id}`)).toBe(1)
      expect(await inner.store!.findMany(note, { where: { userId: u.id } })).toEqual([n])
      expect(await inner.store!.update(note, { userId: u.id }, { stars: 2 })).toBe(1)
      expect(await inner.store!.delete(note, { userId: u.id })).toBe(1)
      expect(await inner.store!.count(note, { userId: u.id })).toBe(0)
    } finally {
      await prefixed.quit()
    }
  })
})

describe("transactions", () => {
  it("run fn with the store directly: each write commits at once, and a throw undoes nothing", async () => {
    const u = await user()
    const id = `n-${unique()}`
    await expect(
      store.transaction(async (tx) => {
        await tx.create(note, { id, userId: u.id, title: "Kept", createdAt: new Date() })
        throw new Error("too late")
      }),
    ).rejects.toThrow("too late")
    expect(await store.findOne(note, { id })).toMatchObject({ title: "Kept" })
  })

  it("an adapter transaction hands fn a store of its own, nested ones the same; its writes commit at once, its creates go when it fails", async () => {
    const u = await user()
    const id = `n-${unique()}`
    await expect(
      adapter.transaction!(async (tx) => {
        expect(tx.store).not.toBe(store)
        await tx.transaction!(async (inner) => {
          expect(inner.store).toBe(tx.store)
          await inner.store!.create(note, { id, userId: u.id, title: "Made", createdAt: new Date() })
        })
        expect(await store.findOne(note, { id })).toMatchObject({ title: "Made" })
        throw new Error("too late")
      }),
    ).rejects.toThrow("too late")
    expect(await store.findOne(note, { id })).toBeNull()
  })
})
