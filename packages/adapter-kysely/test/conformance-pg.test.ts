import { conformance } from "./conformance.js"
import { postgres } from "./dialects.js"

conformance(await postgres(), "node-postgres")
