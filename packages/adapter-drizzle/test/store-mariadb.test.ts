import { mysqlTables } from "@sesame/adapter-drizzle/mysql"
import { drizzle } from "drizzle-orm/mysql2"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { mysqlCreateSql } from "./create-tables.js"
import { mariaDbRun } from "./services.js"
import { storeSuite } from "./store-suite.js"

const run = await mariaDbRun()
const sesame = mysqlTables({ names: renamedTables })

storeSuite({
  name: "MariaDB (mysql2)",
  db: drizzle(run.newPool()),
  sesame,
  async create() {
    for (const statement of await mysqlCreateSql(sesame)) await run.pool.query(statement)
  },
  close: () => run.drop(),
})
