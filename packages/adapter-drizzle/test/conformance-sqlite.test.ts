import { runAdapterTests } from "@sesame/adapter-test"
import { sqlite, withTables } from "./dialects.js"

const run = await sqlite()
const { adapter } = await withTables(run)

runAdapterTests({ name: "DrizzleAdapter on SQLite (better-sqlite3)", adapter, db: { ...run.raw(), disconnect: () => run.close() } })
