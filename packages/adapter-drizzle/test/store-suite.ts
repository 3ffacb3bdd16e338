/**
 * The generic store (`adapter.store`) on one dialect: Sesame's tables (renamed) made by drizzle-kit
 * from the Drizzle tables, as an app makes them, and the suite's models' tables by
 * `migrate(db, { models, tables })` with one renamed through `tables`; then the conformance suite,
 * and what is Drizzle's own: the store inside the adapter's transaction, the driver's error (not
 * Drizzle's) as a conflict's cause, placeholders in quoted text, and `migrate`'s report.
 */
import DrizzleAdapter, { migrate, type DrizzleDatabase, type DrizzleTables, type SesameTables } from "@sesame/adapter-drizzle"
import { runStoreTests, storeTestModels } from "@sesame/adapter-test"
import { StoreConflict, type ModelDeclaration } from "@sesame/core/adapters"
import { DrizzleQueryError } from "drizzle-orm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

export interface StoreRun {
  name: string
  db: DrizzleDatabase
  /** Sesame's ten tables, as the app's Drizzle schema has them. */
  sesame: SesameTables
  /** Creates `sesame` in the run's place (drizzle-kit's statements). */
  create(): Promise<void>
  close(): Promise<void>
}

const { note } = storeTestModels
const user = () => ({ id: crypto.randomUUID(), email: `ada-${crypto.randomUUID()}@example.com`, emailVerified: null })
const noteOf = (userId: string) => ({ id: crypto.randomUUID(), userId, title: "Hello", createdAt: new Date("2025-01-02T03:04:05.678Z") })

export function storeSuite(run: StoreRun): void {
  const tables: DrizzleTables = { ...run.sesame, storeTestNote: "app_store_notes" }
  const adapter = DrizzleAdapter(run.db, { tables })
  let created: Promise<void> | undefined
  const prepare = async (models: readonly ModelDeclaration[]) => {
    await (created ??= run.create())
    await migrate(run.db, { models, tables })
  }
  afterAll(() => run.close())

  runStoreTests({ name: `DrizzleAdapter's store on ${run.name}`, adapter, prepare })

  describe(`DrizzleAdapter's store on ${run.name}, with Drizzle`, () => {
    beforeAll(() => prepare(Object.values(storeTestModels)))

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

    it("rejects a duplicate with StoreConflict whose cause is the driver's error, which lists no values", async () => {
      const ada = await adapter.createUser!(user())
      const row = await adapter.store!.create(note, { ...noteOf(ada.id), title: "secret-title" })
      const error = await adapter.store!.create(note, { ...noteOf(ada.id), id: row.id!, title: "secret-title" }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StoreConflict)
      const cause = (error as Error).cause as Error & { code?: string; sql?: string }
      expect(cause).not.toBeInstanceOf(DrizzleQueryError)
      expect(cause.code).toMatch(/^(23505|ER_DUP_ENTRY|SQLITE_CONSTRAINT_PRIMARYKEY)$/)
      expect(JSON.stringify({ ...cause, message: cause.message })).not.toContain("secret-title")
    })

    it("passes over placeholders in quoted names and text, and migrate reports what it did, and nothing again", async () => {
      const table = `drizzle_notes_${crypto.randomUUID().slice(0, 8)}`
      const model: ModelDeclaration = {
        name: "drizzleStoreNote",
        table,
        primaryKey: "id",
        fields: { id: { type: "string" }, userId: { type: "string", references: { model: "user" } } },
      }
      // A default that looks like placeholders, in the DDL and the values of an INSERT.
      const grown = { ...model, fields: { ...model.fields, label: { type: "string", default: "what? $1 '?'" } } } satisfies ModelDeclaration
      expect(await migrate(run.db, { models: [model], tables })).toEqual({ created: [table], altered: [] })
      expect(await migrate(run.db, { models: [grown], tables })).toEqual({ created: [], altered: [table] })
      expect(await migrate(run.db, { models: [grown], tables })).toEqual({ created: [], altered: [] })
      const ada = await adapter.createUser!(user())
      expect(await adapter.store!.create(grown, { id: "a", userId: ada.id })).toEqual({ id: "a", userId: ada.id, label: "what? $1 '?'" })
      expect(await adapter.store!.findMany(grown, { where: { label: "what? $1 '?'", userId: ada.id } })).toHaveLength(1)
      // Its rows refer to the app's (renamed) users table.
      await adapter.deleteUser!(ada.id)
      expect(await adapter.store!.findOne(grown, { id: "a" })).toBeNull()
    })
  })
}
