import { conformance } from "./conformance.js"
import { sqlite } from "./dialects.js"

conformance(await sqlite(), "better-sqlite3")
