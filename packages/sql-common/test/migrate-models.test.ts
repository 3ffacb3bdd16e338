/**
 * `migrateModels` and the store on the three real servers: tables made in the order of their
 * references, fields and indexes declared later added to tables that have rows (or refused, when
 * a required field has no default to fill them with), a model mapped onto a table of the numbered
 * migrations, the user fields' columns added to the users table, a second run that does nothing,
 * and concurrent increments that all count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StoreConflict, userModel, type FieldDeclaration, type ModelDeclaration, type Store } from "@sesame/core/adapters"
import { migrateModels, sqlStore, type SqlDialect } from "@sesame/sql-common"
import { openServer, type Server } from "./store-servers.js"

const usersTable = "sesame_users"
const nothing = { created: [], altered: [] }

/** A model keyed by the string `id`, with `fields` besides. */
function model(name: string, table: string, fields: Record<string, FieldDeclaration>, extra: Partial<ModelDeclaration> = {}): ModelDeclaration {
  return { name, table, primaryKey: "id", fields: { id: { type: "string" }, ...fields }, ...extra }
}

describe.each(["pg", "mysql", "sqlite"] as const satisfies readonly SqlDialect[])("migrateModels on %s", (dialect) => {
  let server: Server
  let store: Store
  const migrate = (models: ModelDeclaration[], tables?: Record<string, string>) => migrateModels(dialect, server.runner, models, { usersTable, tables })
  const user = () => server.adapter.createUser!({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })

  beforeAll(async () => {
    server = await openServer(dialect, "models", 25)
    store = sqlStore({ dialect, runner: server.runner, usersTable })
  })
  afterAll(() => server.close())

  it("makes missing tables, each after those it refers to; a second run does nothing", async () => {
    const parent = model("mmParent", "mm_parents", { title: { type: "string" } })
    const child: ModelDeclaration = {
      name: "mmChild",
      table: "mm_children",
      primaryKey: "id",
      fields: { id: { type: "integer" }, parentId: { type: "string", references: { model: "mmParent" } }, ownerId: { type: "string", references: { model: "user" } } },
    }
    expect(await migrate([child, parent])).toEqual({ created: ["mm_parents", "mm_children"], altered: [] })
    expect(await migrate([child, parent])).toEqual(nothing)
    const owner = await user()
    await store.create(parent, { id: "p1", title: "Parent" })
    await store.create(child, { id: 1, parentId: "p1", ownerId: owner.id })
    await store.create(child, { id: 2, parentId: "p1", ownerId: owner.id })
    await store.delete(parent, { id: "p1" })
    expect(await store.count(child)).toBe(0)
  })

  it("adds the fields declared later to a table that has rows, filling required ones from their defaults", async () => {
    const before = model("mmItem", "mm_items", { name: { type: "string" } })
    expect(await migrate([before])).toEqual({ created: ["mm_items"], altered: [] })
    await store.create(before, { id: "a", name: "A" })
    const after = model("mmItem", "mm_items", {
      name: { type: "string" },
      rank: { type: "integer", default: 7 },
      flag: { type: "boolean", default: true },
      label: { type: "text", default: `it's \\ fine` },
      since: { type: "date", default: "2025-01-02T03:04:05.678Z" },
      note: { type: "string", optional: true, index: true },
      ownerId: { type: "string", optional: true, references: { model: "user", onDelete: "set null" } },
      data: { type: "json", optional: true },
    })
    expect(await migrate([after])).toEqual({ created: [], altered: ["mm_items"] })
    expect(await migrate([after])).toEqual(nothing)
    expect(await store.findOne(after, { id: "a" })).toEqual({
      id: "a",
      name: "A",
      rank: 7,
      flag: true,
      label: `it's \\ fine`,
      since: new Date("2025-01-02T03:04:05.678Z"),
      note: null,
      ownerId: null,
      data: null,
    })
    // The foreign key came with the column.
    const owner = await user()
    expect(await store.update(after, { id: "a" }, { ownerId: owner.id, data: { ok: true } })).toBe(1)
    await server.adapter.deleteUser!(owner.id)
    expect(await store.findOne(after, { id: "a" })).toMatchObject({ ownerId: null, data: { ok: true } })
    expect(await server.indexNames("mm_items")).toContain("mm_items_note_idx")
  })

  it("refuses a required field without a default on a table with rows, naming table and column, and adds it to an empty one", async () => {
    const before = model("mmTicket", "mm_tickets", { name: { type: "string" } })
    await migrate([before])
    await store.create(before, { id: "t1", name: "First" })
    const after = model("mmTicket", "mm_tickets", { name: { type: "string" }, owner: { type: "string", column: "owner_id" } })
    await expect(migrate([after])).rejects.toThrow(/required column "owner_id" to table "mm_tickets"/)
    expect(Object.keys((await server.rows("mm_tickets"))[0]!).sort()).toEqual(["id", "name"])
    await store.delete(before, {})
    expect(await migrate([after])).toEqual({ created: [], altered: ["mm_tickets"] })
    // The column is required: the database itself refuses a row without it.
    const p = server.placeholder
    await expect(server.runner.run(`INSERT INTO mm_tickets (id, name) VALUES (${p(1)}, ${p(2)})`, ["t2", "Second"])).rejects.toThrow()
    expect(await store.create(after, { id: "t3", name: "Third", owner: "o" })).toEqual({ id: "t3", name: "Third", owner: "o" })
  })

  it("adds the indexes declared later, and a unique one holds", async () => {
    const before = model("mmTag", "mm_tags", { label: { type: "string" }, kind: { type: "string" } })
    await migrate([before])
    await store.create(before, { id: "1", label: "red", kind: "colour" })
    const after = model("mmTag", "mm_tags", { label: { type: "string", unique: true }, kind: { type: "string" } }, { indexes: [{ fields: ["kind", "label"] }] })
    expect(await migrate([after])).toEqual({ created: [], altered: ["mm_tags"] })
    expect(await migrate([after])).toEqual(nothing)
    expect(await server.indexNames("mm_tags")).toEqual(expect.arrayContaining(["mm_tags_kind_label_idx", "mm_tags_label_key"]))
    await expect(store.create(after, { id: "2", label: "red", kind: "other" })).rejects.toBeInstanceOf(StoreConflict)
  })

  it("maps a model onto the signing keys table of the numbered migrations, which it finds complete", async () => {
    const signingKey = model("signingKey", "app_signing_keys", {
      algorithm: { type: "string" },
      publicKey: { type: "text" },
      privateKey: { type: "text" },
      createdAt: { type: "date" },
    })
    const tables = { signingKey: "sesame_signing_keys" }
    expect(await migrate([signingKey], tables)).toEqual(nothing)
    const key = { id: "k1", algorithm: "EdDSA", publicKey: `{"kty":"OKP"}`, privateKey: "eyJ.a.b.c.d", createdAt: new Date("2025-01-02T03:04:05.678Z") }
    // A row as the adapters wrote it before the store: each dialect's own date.
    const createdAt = { pg: key.createdAt, mysql: "2025-01-02 03:04:05.678", sqlite: key.createdAt.getTime() }[dialect]
    const p = server.placeholder
    await server.runner.run(
      `INSERT INTO sesame_signing_keys (id, algorithm, ${dialect === "mysql" ? "`publicKey`, `privateKey`, `createdAt`" : `"publicKey", "privateKey", "createdAt"`}) VALUES (${[1, 2, 3, 4, 5].map(p).join(", ")})`,
      [key.id, key.algorithm, key.publicKey, key.privateKey, createdAt],
    )
    const mapped = sqlStore({ dialect, runner: server.runner, usersTable, tables })
    expect(await mapped.findOne(signingKey, { id: "k1" })).toEqual(key)
    await mapped.create(signingKey, { ...key, id: "k2" })
    expect((await server.rows("sesame_signing_keys")).map((r) => r.id).sort()).toEqual(["k1", "k2"])
  })

  it("adds the user fields' model's columns to the users table, and never makes a users table", async () => {
    const fields = userModel({ mmTier: { type: "integer", default: 2, index: true } })
    const existing = await user()
    expect(await migrate([fields])).toEqual({ created: [], altered: [usersTable] })
    expect(await migrate([fields])).toEqual(nothing)
    expect(Number((await server.rows(usersTable)).find((row) => row.id === existing.id)?.mmTier)).toBe(2)
    expect(await server.indexNames(usersTable)).toContain("sesame_users_mmTier_idx")
    await expect(migrate([fields], { users: "mm_no_users" })).rejects.toThrow(/users table "mm_no_users" does not exist yet/)
    expect(await server.indexNames("mm_no_users")).toEqual([])
  })

  it("counts each of 50 concurrent increments, each returning its own count", async () => {
    const counter = model("mmCounter", "mm_counters", { count: { type: "integer" }, expires: { type: "date" } }, { expires: "expires" })
    await migrate([counter])
    const create = { count: 0, expires: new Date(Date.now() + 60_000) }
    const rows = await Promise.all(Array.from({ length: 50 }, () => store.increment(counter, { id: "c" }, "count", { create })))
    expect(rows.map((r) => r.count).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect(await store.findOne(counter, { id: "c" })).toMatchObject({ count: 50 })
  })
})
