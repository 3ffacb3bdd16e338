import { authjsAdapterSuite } from "./scenario.js"
import { drizzleOnMariaDb } from "./subjects.js"

authjsAdapterSuite(drizzleOnMariaDb)
