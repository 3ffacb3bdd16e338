/**
 * The generic store (`adapter.store`) on each dialect, in a place of its own: the conformance suite
 * on the tables `migrate(db, { models })` makes (Sesame's renamed, and one model's table renamed,
 * through the `tables` both take), then what is Kysely's own: the store inside the adapter's
 * transaction, `migrate`'s report of the models, and (MariaDB) dates in UTC whatever the pool's
 * time zone.
 */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import { builtInModels, StoreConflict, type ModelDeclaration } from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { dialects } from "./dialects.js"

const tables = { ...renamedTables, storeTestNote: "app_store_notes" }
const { note } = storeTestModels
const user = () => ({ id: crypto.randomUUID(), email: `ada-${crypto.randomUUID()}@example.com`, emailVerified: null })
const noteOf = (userId: string) => ({ id: crypto.randomUUID(), userId, title: "Hello", createdAt: new Date("2025-01-02T03:04:05.678Z") })

for (const { name, open } of dialects) {
  const run = await open()
  const db = run.kysely()
  const adapter = KyselyAdapter(db, { tables })
  afterAll(() => run.close())

  runStoreTests({
    name: `KyselyAdapter's store on ${name}`,
    adapter,
    prepare: async (models) => void (await migrate(db, { tables, models })),
  })

  describe(`KyselyAdapter's store on ${name}, with Kysely`, () => {
    beforeAll(() => migrate(db, { tables, models: Object.values(storeTestModels) }))

    it("writes in the adapter's transaction: committed with it, and rolled back with it", async () => {
      const [kept, lost] = [user(), user()]
      await adapter.transaction!(async (tx) => {
        await tx.createUser!(kept)
        await tx.store!.create(note, noteOf(kept.id))
      })
      expect(await adapter.store!.count(note, { userId: kept.id })).toBe(1)
      const failure = new Error("roll back")
      await expect(
        adapter.transaction!(async (tx) => {
          await tx.createUser!(lost)
          await tx.store!.create(note, noteOf(lost.id))
          throw failure
        }),
      ).rejects.toBe(failure)
      expect(await adapter.getUser!(lost.id)).toBeNull()
      expect(await adapter.store!.count(note, { userId: lost.id })).toBe(0)
    })

    it("rejects a duplicate with StoreConflict whose cause is the driver's error", async () => {
      const ada = await adapter.createUser!(user())
      const row = await adapter.store!.create(note, noteOf(ada.id))
      const error = await adapter.store!.create(note, { ...noteOf(ada.id), id: row.id! }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StoreConflict)
      expect((error as Error).cause).toHaveProperty("code", expect.stringMatching(/^(23505|ER_DUP_ENTRY|SQLITE_CONSTRAINT_PRIMARYKEY)$/))
    })

    it("declares Sesame's own models as the tables every release has made: migrating them changes nothing", async () => {
      // The numbered migrations made these tables (renamed through `tables`); the declarations must match them.
      expect(await migrate(db, { tables, models: Object.values(builtInModels) })).toEqual({ version: expect.any(Number), applied: [], models: { created: [], altered: [] } })
    })

    it("migrate reports the models' tables it made or completed, and nothing when run again", async () => {
      const log = { version: expect.any(Number), applied: [] }
      const model: ModelDeclaration = {
        name: "kyselyStoreNote",
        table: `kysely_notes_${crypto.randomUUID().slice(0, 8)}`,
        primaryKey: "id",
        fields: { id: { type: "string" }, userId: { type: "string", references: { model: "user" } } },
      }
      expect(await migrate(db, { tables, models: [model] })).toEqual({ ...log, models: { created: [model.table], altered: [] } })
      const grown = { ...model, fields: { ...model.fields, stars: { type: "integer", default: 0 } } } satisfies ModelDeclaration
      expect(await migrate(db, { tables, models: [grown] })).toEqual({ ...log, models: { created: [], altered: [model.table] } })
      expect(await migrate(db, { tables, models: [grown] })).toEqual({ ...log, models: { created: [], altered: [] } })
      // Its rows refer to the renamed users table.
      const ada = await adapter.createUser!(user())
      await adapter.store!.create(grown, { id: "a", userId: ada.id })
      await adapter.deleteUser!(ada.id)
      expect(await adapter.store!.findOne(grown, { id: "a" })).toBeNull()
    })

    it.runIf(name === "MariaDB")("stores dates in UTC whatever the pool's time zone, and reads them back exactly", async () => {
      const ada = await adapter.createUser!(user())
      const row = await adapter.store!.create(note, noteOf(ada.id))
      const [stored] = await run.exec("SELECT CAST(`createdAt` AS CHAR) AS `at` FROM `app_store_notes` WHERE `id` = ?", [row.id])
      expect(stored).toEqual({ at: "2025-01-02 03:04:05.678" })
      expect((await adapter.store!.findOne(note, { id: row.id! }))?.createdAt).toEqual(new Date("2025-01-02T03:04:05.678Z"))
    })
  })
}
