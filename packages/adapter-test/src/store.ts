/**
 * The conformance suite of the generic store (`adapter.store`): every rule of `Store` in
 * `@sesame/core/adapters`, on models made for the suite.
 *
 * ```ts
 * import { runStoreTests } from "@sesame/adapter-test"
 * runStoreTests({ adapter: MyAdapter(client), prepare: (models) => migrate(client, { models }) })
 * ```
 *
 * `prepare` makes the suite's tables (a store without a schema, such as Redis, needs none). Each
 * test makes its own rows with unique keys, so the suite can run against tables that already hold
 * rows, and twice.
 *
 * @module
 */
import type { Adapter, AdapterUser, ModelDeclaration, Store } from "@sesame/core/adapters"
import { op, sessionPartModel, StoreConflict } from "@sesame/core/adapters"
import { beforeAll, describe, expect, it } from "vitest"
import { sessionPartTests } from "./session-parts.js"

/** The models the suite stores; `prepare` receives them, and the core's `sessionPartModel`. */
export const storeTestModels = {
  note: {
    name: "storeTestNote",
    table: "sesame_store_test_notes",
    primaryKey: "id",
    fields: {
      id: { type: "string" },
      userId: { type: "string", references: { model: "user" }, index: true },
      title: { type: "string" },
      body: { type: "text", optional: true },
      slug: { type: "string", unique: true, optional: true },
      stars: { type: "integer", default: 0 },
      pinned: { type: "boolean", default: false },
      createdAt: { type: "date" },
      meta: { type: "json", optional: true },
      reviewerId: { type: "string", optional: true, references: { model: "user", onDelete: "set null" } },
    },
    indexes: [{ fields: ["userId", "createdAt"] }],
  },
  tag: {
    name: "storeTestTag",
    table: "sesame_store_test_tags",
    primaryKey: ["noteId", "label"],
    fields: {
      noteId: { type: "string", references: { model: "storeTestNote" } },
      label: { type: "string" },
      weight: { type: "integer", column: "tag_weight" },
    },
  },
  counter: {
    name: "storeTestCounter",
    table: "sesame_store_test_counters",
    primaryKey: "key",
    expires: "expires",
    fields: {
      key: { type: "string" },
      count: { type: "integer" },
      expires: { type: "date" },
      scope: { type: "string", optional: true },
    },
  },
} as const satisfies Record<string, ModelDeclaration>

export interface StoreTestOptions {
  /** The title of the suite. */
  name?: string
  /** The adapter whose `store` is tested; its `createUser` and `deleteUser` make the users rows refer to. */
  adapter: Adapter
  /** Makes the tables of the suite's models (SQL: the adapter's migration from declarations). */
  prepare?: (models: ModelDeclaration[]) => Promise<void> | void
  /** Parts the store does not provide: `transactions` (a store that runs `fn` directly). */
  skip?: "transactions"[]
}

const unique = () => crypto.randomUUID().slice(0, 8)
/** A date with whole milliseconds, as every store keeps them. */
const at = (offsetMs = 0) => new Date(Math.floor(Date.now() / 1000) * 1000 + offsetMs)
const day = 86_400_000

/** Registers the store's conformance suite. */
export function runStoreTests(options: StoreTestOptions): void {
  const { adapter } = options
  const { note, tag, counter } = storeTestModels
  const store = (): Store => {
    if (!adapter.store) throw new Error("The adapter has no store.")
    return adapter.store
  }
  const user = async (): Promise<AdapterUser> =>
    adapter.createUser!({ id: crypto.randomUUID(), email: `store-${unique()}@example.com`, emailVerified: null, name: null, image: null })
  const newNote = async (userId: string, extra: Record<string, unknown> = {}) =>
    store().create(note, { id: `n-${unique()}`, userId, title: "Hello", createdAt: at(), ...extra } as never)

  describe(options.name ?? "store", () => {
    beforeAll(async () => {
      await options.prepare?.([...Object.values(storeTestModels), sessionPartModel])
    })

    describe("create and read", () => {
      it("returns the row as stored, with defaults and typed values, and reads it back the same", async () => {
        const u = await user()
        const createdAt = at(-1234)
        const created = await store().create(note, {
          id: `n-${unique()}`,
          userId: u.id,
          title: "A title",
          body: "x".repeat(5000),
          createdAt,
          meta: { tags: ["a", "b"], nested: { n: 1, ok: true, none: null } },
        })
        expect(created).toMatchObject({ userId: u.id, title: "A title", stars: 0, pinned: false, slug: null, reviewerId: null })
        expect(created.createdAt).toBeInstanceOf(Date)
        expect((created.createdAt as Date).getTime()).toBe(createdAt.getTime())
        expect(created.meta).toEqual({ tags: ["a", "b"], nested: { n: 1, ok: true, none: null } })
        const read = await store().findOne(note, { id: created.id! })
        expect(read).toEqual(created)
        expect(typeof read!.stars).toBe("number")
        expect(typeof read!.pinned).toBe("boolean")
      })

      it("stores booleans, zero, empty text and large integers as they are", async () => {
        const u = await user()
        const row = await newNote(u.id, { pinned: true, stars: 2 ** 40, title: "" })
        const read = await store().findOne(note, { id: row.id! })
        expect(read).toMatchObject({ pinned: true, stars: 2 ** 40, title: "" })
      })

      it("maps a field onto the column it names, and keys a row by several fields", async () => {
        const u = await user()
        const n = await newNote(u.id)
        await store().create(tag, { noteId: n.id!, label: "red", weight: 3 })
        await store().create(tag, { noteId: n.id!, label: "blue", weight: 1 })
        expect(await store().findOne(tag, { noteId: n.id!, label: "red" })).toEqual({ noteId: n.id, label: "red", weight: 3 })
        await expect(store().create(tag, { noteId: n.id!, label: "red", weight: 9 })).rejects.toBeInstanceOf(StoreConflict)
        expect(await store().findOne(tag, { noteId: n.id!, label: "red" })).toMatchObject({ weight: 3 })
      })

      it("refuses a repeated primary key or unique value with StoreConflict, and stores nothing", async () => {
        const u = await user()
        const slug = `slug-${unique()}`
        const first = await newNote(u.id, { slug })
        await expect(newNote(u.id, { id: first.id, title: "Other" })).rejects.toBeInstanceOf(StoreConflict)
        const duplicateSlug = `n-${unique()}`
        await expect(newNote(u.id, { id: duplicateSlug, slug })).rejects.toBeInstanceOf(StoreConflict)
        expect(await store().findOne(note, { id: duplicateSlug })).toBeNull()
        expect(await store().findOne(note, { id: first.id! })).toMatchObject({ title: "Hello" })
      })

      it("tells keys and values apart that differ only in case (tokens, base64 ids)", async () => {
        const u = await user()
        const id = `Case-${unique()}`
        await newNote(u.id, { id, slug: `${id}-slug` })
        await newNote(u.id, { id: id.toLowerCase(), slug: `${id}-slug`.toLowerCase() })
        expect(await store().findOne(note, { id: id.toUpperCase() })).toBeNull()
        expect(await store().findOne(note, { slug: `${id}-slug` })).toMatchObject({ id })
        expect(await store().count(note, { id: op.in([id, id.toLowerCase()]) })).toBe(2)
      })

      it("refuses a row that refers to a user who does not exist, and stores nothing", async () => {
        const id = `n-${unique()}`
        await expect(store().create(note, { id, userId: `nobody-${unique()}`, title: "Orphan", createdAt: at() })).rejects.toThrow()
        expect(await store().findOne(note, { id })).toBeNull()
      })

      it("answers null for a row that is not there", async () => {
        expect(await store().findOne(note, { id: `missing-${unique()}` })).toBeNull()
      })
    })

    describe("conditions, order and pages", () => {
      it("filters by equality, null, in, ne and comparisons, and counts the same", async () => {
        const u = await user()
        const rows = []
        for (let i = 0; i < 5; i++) rows.push(await newNote(u.id, { stars: i, createdAt: at(i * 1000), slug: i % 2 ? `s-${unique()}` : null }))
        const ids = (list: { id?: unknown }[]) => list.map((r) => r.id).sort()
        const mine = { userId: u.id }
        expect(ids(await store().findMany(note, { where: mine }))).toEqual(ids(rows))
        expect(ids(await store().findMany(note, { where: { ...mine, slug: null } }))).toEqual(ids([rows[0]!, rows[2]!, rows[4]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, slug: op.ne(null) } }))).toEqual(ids([rows[1]!, rows[3]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, stars: op.in([1, 3, 99]) } }))).toEqual(ids([rows[1]!, rows[3]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, stars: op.ne(2) } }))).toEqual(ids([rows[0]!, rows[1]!, rows[3]!, rows[4]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, stars: op.lt(2) } }))).toEqual(ids([rows[0]!, rows[1]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, stars: op.lte(2) } }))).toEqual(ids([rows[0]!, rows[1]!, rows[2]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, createdAt: op.gt(rows[3]!.createdAt as Date) } }))).toEqual(ids([rows[4]!]))
        expect(ids(await store().findMany(note, { where: { ...mine, createdAt: op.gte(rows[3]!.createdAt as Date) } }))).toEqual(ids([rows[3]!, rows[4]!]))
        expect(await store().count(note, mine)).toBe(5)
        expect(await store().count(note, { ...mine, stars: op.gte(3) })).toBe(2)
        expect(await store().findMany(note, { where: { ...mine, stars: op.in([]) } })).toEqual([])
      })

      it("orders by several keys, both directions, and pages with limit and offset", async () => {
        const u = await user()
        for (let i = 0; i < 6; i++) await newNote(u.id, { stars: i % 3, createdAt: at(i * 1000), title: `t${i}` })
        const sorted = await store().findMany(note, {
          where: { userId: u.id },
          orderBy: [{ field: "stars", direction: "desc" }, { field: "createdAt" }],
        })
        expect(sorted.map((r) => r.title)).toEqual(["t2", "t5", "t1", "t4", "t0", "t3"])
        const page = await store().findMany(note, { where: { userId: u.id }, orderBy: [{ field: "createdAt", direction: "asc" }], limit: 2, offset: 2 })
        expect(page.map((r) => r.title)).toEqual(["t2", "t3"])
        const first = await store().findMany(note, { where: { userId: u.id }, orderBy: [{ field: "createdAt", direction: "desc" }], limit: 1 })
        expect(first.map((r) => r.title)).toEqual(["t5"])
      })

      it("refuses a condition on a json field or an unknown field", async () => {
        await expect(store().findMany(note, { where: { meta: "x" } })).rejects.toThrow(TypeError)
        await expect(store().findMany(note, { where: { nope: 1 } })).rejects.toThrow(TypeError)
      })

      it("never reads a request's JSON as an operator: an object or array where a value goes is refused", async () => {
        const u = await user()
        const secret = await newNote(u.id, { slug: `s-${unique()}` })
        // What `JSON.parse` of `{"id": {"ne": null}}` gives: were it an operator, it would match every row.
        const fromRequest = JSON.parse('{"id":{"ne":null},"slug":{"in":["a"]},"title":["Hello"]}') as Record<string, never>
        for (const [field, value] of Object.entries(fromRequest)) {
          await expect(store().findOne(note, { [field]: value })).rejects.toThrow(TypeError)
          await expect(store().count(note, { [field]: value })).rejects.toThrow(TypeError)
          await expect(store().delete(note, { [field]: value })).rejects.toThrow(TypeError)
        }
        expect(await store().findOne(note, { id: secret.id! })).toMatchObject({ slug: secret.slug })
      })
    })

    describe("update and delete", () => {
      it("updates the rows that match and says how many; others are untouched", async () => {
        const u = await user()
        const a = await newNote(u.id, { stars: 1 })
        const b = await newNote(u.id, { stars: 1 })
        const c = await newNote(u.id, { stars: 5 })
        expect(await store().update(note, { userId: u.id, stars: 1 }, { pinned: true, meta: [1, "two"], body: null })).toBe(2)
        expect(await store().findOne(note, { id: a.id! })).toMatchObject({ pinned: true, meta: [1, "two"], body: null })
        expect(await store().findOne(note, { id: b.id! })).toMatchObject({ pinned: true })
        expect(await store().findOne(note, { id: c.id! })).toMatchObject({ pinned: false, meta: null })
        expect(await store().update(note, { id: `missing-${unique()}` }, { pinned: true })).toBe(0)
      })

      it("counts a row whose values do not change as updated", async () => {
        const u = await user()
        const a = await newNote(u.id, { stars: 1 })
        expect(await store().update(note, { id: a.id! }, { stars: 1 })).toBe(1)
      })

      it("refuses to change a primary key, and an update to a taken unique value", async () => {
        const u = await user()
        const a = await newNote(u.id, { slug: `a-${unique()}` })
        const b = await newNote(u.id, { slug: `b-${unique()}` })
        await expect(store().update(note, { id: a.id! }, { id: `n-${unique()}` })).rejects.toThrow(TypeError)
        await expect(store().update(note, { id: b.id! }, { slug: a.slug! })).rejects.toBeInstanceOf(StoreConflict)
        expect(await store().findOne(note, { id: b.id! })).toMatchObject({ slug: b.slug })
        expect(await store().findOne(note, { slug: a.slug! })).toMatchObject({ id: a.id })
      })

      it("deletes the rows that match and says how many", async () => {
        const u = await user()
        await newNote(u.id, { stars: 1 })
        await newNote(u.id, { stars: 1 })
        const kept = await newNote(u.id, { stars: 2 })
        expect(await store().delete(note, { userId: u.id, stars: 1 })).toBe(2)
        expect((await store().findMany(note, { where: { userId: u.id } })).map((r) => r.id)).toEqual([kept.id])
        expect(await store().delete(note, { id: `missing-${unique()}` })).toBe(0)
      })

      it("frees a unique value when its row is deleted or changed", async () => {
        const u = await user()
        const slug = `s-${unique()}`
        const a = await newNote(u.id, { slug })
        await store().delete(note, { id: a.id! })
        const b = await newNote(u.id, { slug })
        await store().update(note, { id: b.id! }, { slug: `other-${unique()}` })
        await expect(newNote(u.id, { slug })).resolves.toMatchObject({ slug })
      })
    })

    describe("references", () => {
      it("deletes a user's rows with the user, clears a set-null reference, and cascades on through models", async () => {
        const owner = await user()
        const reviewer = await user()
        const other = await user()
        const n = await newNote(owner.id)
        const reviewed = await newNote(other.id, { reviewerId: reviewer.id })
        await store().create(tag, { noteId: n.id!, label: "x", weight: 1 })
        await adapter.deleteUser!(owner.id)
        expect(await store().findOne(note, { id: n.id! })).toBeNull()
        expect(await store().findOne(tag, { noteId: n.id!, label: "x" })).toBeNull()
        await adapter.deleteUser!(reviewer.id)
        expect(await store().findOne(note, { id: reviewed.id! })).toMatchObject({ reviewerId: null, userId: other.id })
      })

      it("deletes a declared model's referring rows with the row", async () => {
        const u = await user()
        const n = await newNote(u.id)
        await store().create(tag, { noteId: n.id!, label: "y", weight: 1 })
        await store().delete(note, { id: n.id! })
        expect(await store().count(tag, { noteId: n.id! })).toBe(0)
      })
    })

    describe("expiry and counters", () => {
      it("treats an expired row as absent to reads, counts and updates, and deletes it", async () => {
        const scope = `scope-${unique()}`
        await store().create(counter, { key: `live-${unique()}`, count: 1, expires: at(day), scope })
        const gone = `gone-${unique()}`
        await store().create(counter, { key: gone, count: 1, expires: at(-day), scope })
        expect(await store().findOne(counter, { key: gone })).toBeNull()
        expect(await store().count(counter, { scope })).toBe(1)
        expect((await store().findMany(counter, { where: { scope } })).length).toBe(1)
        expect(await store().update(counter, { key: gone }, { count: 7 })).toBe(0)
        expect(await store().delete(counter, { scope })).toBeGreaterThanOrEqual(1)
        expect(await store().count(counter, { scope })).toBe(0)
      })

      it("increments a counter, starts a missing one from create, and restarts an expired one", async () => {
        const key = `k-${unique()}`
        const expires = at(day)
        expect(await store().increment(counter, { key }, "count", { create: { key, count: 0, expires, scope: "a" } })).toMatchObject({ key, count: 1, scope: "a" })
        const after = await store().increment(counter, { key }, "count", { by: 4, create: { key, count: 0, expires: at(2 * day), scope: "b" } })
        expect(after).toMatchObject({ count: 5, scope: "a" })
        expect((after.expires as Date).getTime()).toBe(expires.getTime())
        const stale = `k-${unique()}`
        await store().create(counter, { key: stale, count: 9, expires: at(-1000), scope: "old" })
        const restarted = await store().increment(counter, { key: stale }, "count", { by: 2, create: { key: stale, count: 0, expires, scope: "new" } })
        expect(restarted).toMatchObject({ count: 2, scope: "new" })
        expect((restarted.expires as Date).getTime()).toBe(expires.getTime())
      })

      it("writes `set` at every increment: a sliding expiry", async () => {
        const key = `s-${unique()}`
        const [first, later] = [at(day), at(2 * day)]
        const created = await store().increment(counter, { key }, "count", { create: { key, count: 0, expires: at(3 * day) }, set: { expires: first, scope: "one" } })
        expect(created).toMatchObject({ count: 1, scope: "one" })
        expect((created.expires as Date).getTime()).toBe(first.getTime())
        const moved = await store().increment(counter, { key }, "count", { create: { key, count: 0, expires: at(3 * day) }, set: { expires: later } })
        expect(moved).toMatchObject({ count: 2, scope: "one" })
        expect(((await store().findOne(counter, { key }))!.expires as Date).getTime()).toBe(later.getTime())
      })

      it("counts every one of many concurrent increments, each returning its own count", async () => {
        const key = `c-${unique()}`
        const create = { key, count: 0, expires: at(day) }
        const results = await Promise.all(Array.from({ length: 40 }, () => store().increment(counter, { key }, "count", { create })))
        expect(results.map((r) => r.count).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
        expect(await store().findOne(counter, { key })).toMatchObject({ count: 40 })
      })
    })

    describe.skipIf(options.skip?.includes("transactions"))("transactions", () => {
      it("commits every write of a transaction that resolves", async () => {
        const u = await user()
        const id = `n-${unique()}`
        await store().transaction(async (tx) => {
          await tx.create(note, { id, userId: u.id, title: "In a transaction", createdAt: at() })
          await tx.create(tag, { noteId: id, label: "t", weight: 1 })
        })
        expect(await store().count(tag, { noteId: id })).toBe(1)
      })

      it("rolls back every write of a transaction that throws", async () => {
        const u = await user()
        const id = `n-${unique()}`
        const failure = new Error("half-way")
        await expect(
          store().transaction(async (tx) => {
            await tx.create(note, { id, userId: u.id, title: "Never", createdAt: at() })
            await tx.increment(counter, { key: id }, "count", { create: { key: id, count: 0, expires: at(day) } })
            throw failure
          }),
        ).rejects.toBe(failure)
        expect(await store().findOne(note, { id })).toBeNull()
        expect(await store().findOne(counter, { key: id })).toBeNull()
      })
    })

    sessionPartTests(adapter, store)
  })
}
