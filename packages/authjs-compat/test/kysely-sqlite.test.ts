import { authjsAdapterSuite } from "./scenario.js"
import { kyselyOnSqlite } from "./subjects.js"

authjsAdapterSuite(kyselyOnSqlite)
