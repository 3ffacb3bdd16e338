/**
 * The generic store's conformance suite on PostgreSQL, in a schema of its own: the suite's tables
 * made by `migrate(pool, { models })`, one of them renamed through the adapter's `tables`.
 */
import { afterAll, describe, expect, it } from "vitest"
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { testSchema } from "./database.js"

const db = testSchema("store")
const pool = db.pool()
const tables = { storeTestNote: "pg_store_notes" }

afterAll(() => db.drop())

runStoreTests({
  name: "PostgresAdapter store",
  adapter: PostgresAdapter(pool, { tables }),
  prepare: async (models) => {
    await db.create()
    await migrate(pool, { models, tables })
  },
})

describe("migrate with models", () => {
  it("does nothing the second time", async () => {
    const models = Object.values(storeTestModels)
    expect(await migrate(pool, { models, tables })).toMatchObject({ applied: [], models: { created: [], altered: [] } })
  })
})
