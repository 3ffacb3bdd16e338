import { postgres } from "./dialects.js"
import { userFieldsSuite, writtenFields } from "./user-fields-suite.js"

// A `bigint` in bigint mode, `jsonb` and `timestamptz`, which Drizzle converts itself.
userFieldsSuite(await postgres(), { ...writtenFields, seats: 3n })
