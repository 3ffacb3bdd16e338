import { runAdapterTests } from "@sesame/adapter-test"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { rawReader } from "./raw-reader.js"
import { testSchema } from "./database.js"

const schema = testSchema("conf")
const pool = schema.pool()
const renamed = { users: "app_users", accounts: "app_accounts", sessions: "app_sessions", verificationTokens: "app_tokens", authenticators: "app_passkeys" }

// Two adapters on one schema: the default table names, and renamed ones beside them.
runAdapterTests({
  name: "PostgresAdapter",
  adapter: PostgresAdapter(pool),
  db: rawReader(schema.pool(), {}, {
    async connect() {
      await schema.create()
      await migrate(pool)
    },
  }),
})

runAdapterTests({
  name: "PostgresAdapter (renamed tables)",
  adapter: PostgresAdapter(pool, { tables: renamed }),
  db: rawReader(schema.pool(), renamed, {
    connect: async () => {
      await migrate(pool, { tables: renamed, migrationsTable: "app_migrations" })
    },
    disconnect: () => schema.drop(),
  }),
})
