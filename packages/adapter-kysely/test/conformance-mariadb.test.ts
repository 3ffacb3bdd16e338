import { conformance } from "./conformance.js"
import { mariaDb } from "./dialects.js"

conformance(await mariaDb(), "mysql2")
