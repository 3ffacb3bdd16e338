/**
 * The app's user fields on each dialect, in a place of its own: the conformance suite with the
 * default table names and with every table renamed (the fields' columns added to the adapter's own
 * users table by `migrate(db, { models: [model] })`), and the same columns as the dialect's own
 * adapter reads them (MariaDB's pool set to another time zone: dates stay UTC).
 */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { runUserFieldsTests, userFieldsTestModel } from "@sesame/adapter-test"
import type { AdapterUser } from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { dialects } from "./dialects.js"

for (const { name, open } of dialects) {
  const run = await open()
  const db = run.kysely()
  afterAll(() => run.close())

  runUserFieldsTests({
    name: `KyselyAdapter user fields on ${name}`,
    adapter: KyselyAdapter(db),
    prepare: async (model) => void (await migrate(db, { models: [model] })),
  })

  runUserFieldsTests({
    name: `KyselyAdapter user fields on ${name} (renamed tables)`,
    adapter: KyselyAdapter(db, { tables: renamedTables }),
    prepare: async (model) => void (await migrate(db, { tables: renamedTables, migrationsTable: "app_migrations", models: [model] })),
  })

  describe(`KyselyAdapter user fields on ${name}, beside the dialect's own adapter`, () => {
    beforeAll(() => migrate(db, { models: [userFieldsTestModel] }))

    it("stores them as the dialect's own adapter does", async () => {
      const bound = KyselyAdapter(db).withUserFields!(userFieldsTestModel)
      const native = run.nativeAdapter().withUserFields!(userFieldsTestModel)
      const user = { id: crypto.randomUUID(), email: `both-${crypto.randomUUID().slice(0, 8)}@example.com`, emailVerified: null }
      const fields = { role: "admin", plan: "team", seats: 3, beta: true, trialEnds: new Date("2030-01-02T03:04:05.000Z"), prefs: { a: [1] }, bio: "Hi" }
      await bound.createUser!({ ...user, ...fields } as AdapterUser)
      expect(await native.getUser!(user.id)).toEqual({ ...user, name: null, image: null, ...fields })
      await native.updateUser!({ id: user.id, seats: 4, trialEnds: null } as Partial<AdapterUser> & { id: string })
      expect(await bound.getUser!(user.id)).toEqual({ ...user, name: null, image: null, ...fields, seats: 4, trialEnds: null })
    })
  })
}
