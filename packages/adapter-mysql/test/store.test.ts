/**
 * The generic store's conformance suite on MariaDB, in a database of its own: the suite's tables
 * made by `migrate(pool, { models })`, one of them renamed through the adapter's `tables`.
 */
import { afterAll, describe, expect, it } from "vitest"
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { testDatabase } from "./database.js"

const database = testDatabase("store")
// As many connections as the suite's concurrent increments, so that they really run side by side.
const pool = database.pool({ connectionLimit: 40 })
const tables = { storeTestNote: "mysql_store_notes" }

afterAll(() => database.drop())

runStoreTests({
  name: "MysqlAdapter store (MariaDB)",
  adapter: MysqlAdapter(pool, { tables }),
  prepare: async (models) => {
    await database.create()
    await migrate(pool, { models, tables })
  },
})

describe("migrate with models", () => {
  it("does nothing the second time", async () => {
    const models = Object.values(storeTestModels)
    expect(await migrate(pool, { models, tables })).toMatchObject({ applied: [], models: { created: [], altered: [] } })
  })
})
