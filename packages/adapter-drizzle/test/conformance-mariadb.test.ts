import { runAdapterTests } from "@sesame/adapter-test"
import { mariaDb, withTables } from "./dialects.js"

const run = await mariaDb()
const { adapter } = await withTables(run)

runAdapterTests({ name: "DrizzleAdapter on MariaDB (mysql2)", adapter, db: { ...run.raw(), disconnect: () => run.close() } })
