/**
 * The app's user fields on PostgreSQL: the conformance suite on a users table that already had a
 * row when `migrate(pool, { models: [model] })` added the fields' columns, and that migration
 * itself, each in a schema of its own.
 */
import { afterAll, describe } from "vitest"
import { runUserFieldsTests } from "@sesame/adapter-test"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { checkUserFieldsMigration } from "../../sql-common/test/shared/user-fields.js"
import { testSchema } from "./database.js"

const suite = testSchema("fields")
const pool = suite.pool()
const adapter = PostgresAdapter(pool)
const place = testSchema("fields_migrate")
const placePool = place.pool()

afterAll(() => Promise.all([suite.drop(), place.drop()]))

runUserFieldsTests({
  name: "PostgresAdapter user fields",
  adapter,
  prepare: async (model) => {
    await suite.create()
    await migrate(pool)
    await adapter.createUser!({ id: crypto.randomUUID(), email: "before-the-fields@example.com", emailVerified: null })
    await migrate(pool, { models: [model] })
  },
})

describe("PostgresAdapter: migrate with the user fields' model", () => {
  let created: Promise<void> | undefined
  checkUserFieldsMigration({
    async migrate(options) {
      await (created ??= place.create())
      return migrate(placePool, options)
    },
    adapter: (options) => PostgresAdapter(placePool, options),
  })
})
