/**
 * The app's user fields on MariaDB: the conformance suite on a users table that already had a row
 * when `migrate(pool, { models: [model] })` added the fields' columns, and that migration itself,
 * each in a database of its own.
 */
import { afterAll, describe } from "vitest"
import { runUserFieldsTests } from "@sesame/adapter-test"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { checkUserFieldsMigration } from "../../sql-common/test/shared/user-fields.js"
import { testDatabase } from "./database.js"

const suite = testDatabase("fields")
const pool = suite.pool()
const adapter = MysqlAdapter(pool)
const place = testDatabase("fields_migrate")
const placePool = place.pool()

afterAll(() => Promise.all([suite.drop(), place.drop()]))

runUserFieldsTests({
  name: "MysqlAdapter user fields (MariaDB)",
  adapter,
  prepare: async (model) => {
    await suite.create()
    await migrate(pool)
    await adapter.createUser!({ id: crypto.randomUUID(), email: "before-the-fields@example.com", emailVerified: null })
    await migrate(pool, { models: [model] })
  },
})

describe("MysqlAdapter: migrate with the user fields' model", () => {
  let created: Promise<void> | undefined
  checkUserFieldsMigration({
    async migrate(options) {
      await (created ??= place.create())
      return migrate(placePool, options)
    },
    adapter: (options) => MysqlAdapter(placePool, options),
  })
})
