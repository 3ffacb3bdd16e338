import { authjsAdapterSuite } from "./scenario.js"
import { kyselyOnMariaDb } from "./subjects.js"

authjsAdapterSuite(kyselyOnMariaDb)
