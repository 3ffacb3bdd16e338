import { runAdapterTests } from "@sesame/adapter-test"
import { postgres, withTables } from "./dialects.js"

const run = await postgres()
const { adapter } = await withTables(run)

runAdapterTests({ name: "DrizzleAdapter on PostgreSQL (node-postgres)", adapter, db: { ...run.raw(), disconnect: () => run.close() } })
