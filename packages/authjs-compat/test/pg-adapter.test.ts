import { authjsAdapterSuite } from "./scenario.js"
import { pgAdapterOnPostgres } from "./subjects.js"

authjsAdapterSuite(pgAdapterOnPostgres)
