/**
 * The module on real PostgreSQL through the Kysely adapter (`@sesame/adapter-kysely`), with the
 * organizations module: the tables made by `migrate(db, { models: modelsOf(config) })`, as `npx
 * sesame migrate --plugin` makes them, then a key's whole life (created, used, rate limited,
 * rotated, revoked), an organization's key, the user's deletion cascading, and every stored row
 * scanned for the raw key.
 */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { modelsOf } from "@sesame/core"
import { Kysely, PostgresDialect, sql } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testSchema } from "../../adapter-pg/test/database.js"
import { acme, makeWorld, type World } from "./world.js"

const place = testSchema("api_keys")
let db: Kysely<object>
let world: World

beforeAll(async () => {
  await place.create()
  db = new Kysely({ dialect: new PostgresDialect({ pool: place.pool() }) })
  world = makeWorld({ adapter: KyselyAdapter(db), organizations: true, keys: { rotationOverlap: 0 } })
  await migrate(db)
  await migrate(db, { models: modelsOf(world.config) })
})

afterAll(async () => {
  await db?.destroy()
  await place.drop()
})

describe("on PostgreSQL through Kysely", () => {
  it("makes the tables, with the hash unique and the references in place", async () => {
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = ${place.name} and table_name = 'sesame_api_keys'`.execute(db)
    expect(columns.rows.map((r) => r.column_name).sort()).toEqual(
      ["createdAt", "createdBy", "expires", "id", "keyHash", "lastUsedAt", "name", "organizationId", "rateLimitMax", "rateLimitWindow", "replacedBy", "scopes", "start", "userId"].sort(),
    )
    const uses = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = ${place.name} and table_name = 'sesame_api_key_uses'`.execute(db)
    expect(uses.rows[0]!.n).toBe(1)
  })

  it("a key's life: created, used, rate limited, rotated, revoked; an organization's key; the user's deletion", async () => {
    const ada = await world.user(`ada-${Date.now()}@example.com`)
    const created = await ada.api("createApiKey", { name: "ci", scopes: ["read"], rateLimit: { max: 2, window: 3600 } })
    expect(await world.bearer(created.key)).toMatchObject({ userId: ada.id, scopes: ["read"] })
    expect(await world.bearer(created.key)).toMatchObject({ rateLimited: false })
    expect(await world.bearer(created.key)).toMatchObject({ rateLimited: true })
    const [listed] = await ada.api("listApiKeys")
    expect(listed.lastUsedAt).toBeInstanceOf(Date)

    const rotated = await ada.api("rotateApiKey", created.id)
    expect(await world.bearer(created.key)).toBeNull()
    expect(await world.bearer(rotated.key)).toMatchObject({ keyId: rotated.id })
    await ada.api("revokeApiKey", rotated.id)
    expect(await world.bearer(rotated.key)).toBeNull()

    const last = await ada.api("createApiKey", { name: "kept" })
    const rows = await world.storedRows()
    for (const key of [created.key, rotated.key, last.key]) expect(rows).not.toContain(key)
    await world.adapter.deleteUser!(ada.id)
    expect(await world.bearer(last.key)).toBeNull()
  })

  it("an organization's key, managed by its admin, refused to a member", async () => {
    const { bob, cy, org } = await acme(world)
    const created = await bob.api("createApiKey", { name: "Acme CI", organizationId: org.id })
    expect(await world.bearer(created.key)).toMatchObject({ organizationId: org.id, userId: null })
    await expect(cy.api("revokeApiKey", created.id)).rejects.toMatchObject({ code: "NotFound" })
    expect(await world.bearer(created.key)).not.toBeNull()
  })
})
