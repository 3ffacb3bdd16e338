import { runAdapterTests } from "@sesame/adapter-test"
import PostgresAdapter, { migrate } from "@sesame/adapter-pg"
import { rawReader } from "./raw-reader.js"
import { testSchema } from "./database.js"
import { renamedTables } from "../../sql-common/test/shared/tables.js"

const schema = testSchema("conf")
const pool = schema.pool()

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
  adapter: PostgresAdapter(pool, { tables: renamedTables }),
  db: rawReader(schema.pool(), renamedTables, {
    connect: async () => {
      await migrate(pool, { tables: renamedTables, migrationsTable: "app_migrations" })
    },
    disconnect: () => schema.drop(),
  }),
})
