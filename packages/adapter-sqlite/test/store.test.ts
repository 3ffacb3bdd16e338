/**
 * The generic store's conformance suite on SQLite, in a file of its own: the suite's tables made by
 * `migrate(db, { models })`, one of them renamed through the adapter's `tables`.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import SqliteAdapter, { migrate } from "@sesame/adapter-sqlite"

const db = new Database(join(mkdtempSync(join(tmpdir(), "sesame-sqlite-store-")), "store.db"))
const tables = { storeTestNote: "lite_store_notes" }

runStoreTests({
  name: "SqliteAdapter store",
  adapter: SqliteAdapter(db, { tables }),
  prepare: async (models) => {
    await migrate(db, { models, tables })
  },
})

describe("migrate with models", () => {
  it("does nothing the second time", async () => {
    const models = Object.values(storeTestModels)
    expect(await migrate(db, { models, tables })).toMatchObject({ applied: [], models: { created: [], altered: [] } })
  })

  it("stays synchronous without models", () => {
    const result = migrate(db, { tables })
    expect(result).not.toBeInstanceOf(Promise)
    expect(result.applied).toEqual([])
  })
})
