import { authjsAdapterSuite } from "./scenario.js"
import { drizzleOnPostgres } from "./subjects.js"

authjsAdapterSuite(drizzleOnPostgres)
