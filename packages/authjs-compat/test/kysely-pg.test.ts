import { authjsAdapterSuite } from "./scenario.js"
import { kyselyOnPostgres } from "./subjects.js"

authjsAdapterSuite(kyselyOnPostgres)
