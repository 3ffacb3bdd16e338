import { runAdapterTests } from "@sesame/adapter-test"
import MysqlAdapter, { migrate } from "@sesame/adapter-mysql"
import { rawReader } from "./raw-reader.js"
import { testDatabase } from "./database.js"
import { renamedTables } from "../../sql-common/test/shared/tables.js"

const database = testDatabase("conf")
const pool = database.pool()

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
  adapter: MysqlAdapter(pool, { tables: renamedTables }),
  db: rawReader(database.pool(), renamedTables, {
    connect: async () => {
      await migrate(pool, { tables: renamedTables, migrationsTable: "app_migrations" })
    },
    disconnect: () => database.drop(),
  }),
})
