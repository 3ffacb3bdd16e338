import { pgTables } from "@sesame/adapter-drizzle/pg"
import { drizzle } from "drizzle-orm/node-postgres"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { pgCreateSql } from "./create-tables.js"
import { postgresRun } from "./services.js"
import { storeSuite } from "./store-suite.js"

const run = await postgresRun()
const sesame = pgTables({ schema: run.schema, names: renamedTables })

storeSuite({
  name: "PostgreSQL (node-postgres)",
  db: drizzle(run.newPool()),
  sesame,
  async create() {
    for (const statement of await pgCreateSql(sesame)) await run.pool.query(statement)
  },
  close: () => run.drop(),
})
