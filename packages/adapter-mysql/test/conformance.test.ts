import { runAdapterTests } from "@sesame/adapter-test"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { rawReader } from "./raw-reader.js"
import { testDatabase } from "./database.js"

const database = testDatabase("conf")
const pool = database.pool()
const renamed = { users: "app_users", accounts: "app_accounts", sessions: "app_sessions", verificationTokens: "app_tokens", authenticators: "app_passkeys" }

// Two adapters on one database: the default table names, and renamed ones beside them.
runAdapterTests({
  name: "MysqlAdapter (MariaDB)",
  adapter: MysqlAdapter(pool),
  db: rawReader(database.pool(), {}, {
    async connect() {
      await database.create()
      await migrate(pool)
    },
  }),
})

runAdapterTests({
  name: "MysqlAdapter (MariaDB, renamed tables)",
  adapter: MysqlAdapter(pool, { tables: renamed }),
  db: rawReader(database.pool(), renamed, {
    connect: async () => {
      await migrate(pool, { tables: renamed, migrationsTable: "app_migrations" })
    },
    disconnect: () => database.drop(),
  }),
})
