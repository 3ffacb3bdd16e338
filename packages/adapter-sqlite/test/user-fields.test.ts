/**
 * The app's user fields on SQLite: the conformance suite on a users table (in a file) that already
 * had a row when `migrate(db, { models: [model] })` added the fields' columns, and that migration
 * itself, on a database in memory.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe } from "vitest"
import { runUserFieldsTests } from "@sesame/adapter-test"
import SqliteAdapter, { migrate } from "@sesame/adapter-sqlite"
import { checkUserFieldsMigration } from "../../sql-common/test/shared/user-fields.js"

const db = new Database(join(mkdtempSync(join(tmpdir(), "sesame-sqlite-fields-")), "fields.db"))
// The adapter applies the numbered migrations as it is made.
const adapter = SqliteAdapter(db)

runUserFieldsTests({
  name: "SqliteAdapter user fields",
  adapter,
  prepare: async (model) => {
    await adapter.createUser!({ id: crypto.randomUUID(), email: "before-the-fields@example.com", emailVerified: null })
    await migrate(db, { models: [model] })
  },
})

describe("SqliteAdapter: migrate with the user fields' model", () => {
  const memory = new Database(":memory:")
  checkUserFieldsMigration({
    migrate: async (options) => migrate(memory, options),
    adapter: (options) => SqliteAdapter(memory, { ...options, migrate: false }),
  })
})
