import { authjsAdapterSuite } from "./scenario.js"
import { drizzleOnSqlite } from "./subjects.js"

authjsAdapterSuite(drizzleOnSqlite)
